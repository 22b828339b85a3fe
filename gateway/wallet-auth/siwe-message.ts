/**
 * Reads a signed-in message as EIP-4361 lays it out and holds it to this node: the
 * origin makers sign in at, the chains it knows, and the clock. viem parses the fields;
 * the message must also be exactly what those fields make (viem's createSiweMessage),
 * time lines compared by the instant they name, so no text a wallet did not show as a
 * field can ride along, and an address must be EIP-55 checksummed, as the standard says.
 */
import type { Address } from 'viem';
import { createSiweMessage, parseSiweMessage, type SiweMessage } from 'viem/siwe';
import { ApiError } from '../envelope.js';

/** How far ahead of the node's clock a wallet's clock may run. */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

export interface SignInRules {
  /** The origin makers sign in at, e.g. `https://app.example.com`: the message's domain, scheme and URI must be its. */
  origin: string;
  chainIds: readonly number[];
  now: number;
}

export interface SignInMessage {
  address: Address;
  chainId: number;
  nonce: string;
  /** When the message stops being good for a sign-in, in ms; null when it does not say. */
  expiresAt: number | null;
}

const TIME_LINES = ['Issued At: ', 'Expiration Time: ', 'Not Before: '];

function invalidMessage(why: string): ApiError {
  return new ApiError(400, `Not an EIP-4361 sign-in message: ${why}`, 'SIWE_MESSAGE_INVALID');
}

export function readSignInMessage(text: string, rules: SignInRules): SignInMessage {
  const fields = parseSiweMessage(text);
  const missing = (['domain', 'address', 'uri', 'version', 'chainId', 'nonce', 'issuedAt'] as const).filter((name) => fields[name] === undefined);
  if (missing.length > 0) throw invalidMessage(`no ${missing.join(', ')}`);
  const message = fields as SiweMessage & { issuedAt: Date };
  let rebuilt: string;
  try {
    rebuilt = createSiweMessage(message);
  } catch (error) {
    throw invalidMessage(((error as { shortMessage?: string }).shortMessage ?? (error as Error).message).split('\n')[0]!);
  }
  if (!sameLayout(text, rebuilt))
    throw invalidMessage('it must be exactly the standard layout, with the address EIP-55 checksummed and nothing besides the fields');

  const origin = new URL(rules.origin);
  const uri = URL.canParse(message.uri) ? new URL(message.uri) : null;
  if (message.domain !== origin.host || (message.scheme !== undefined && `${message.scheme}:` !== origin.protocol) || uri?.origin !== origin.origin) {
    throw new ApiError(401, `The message is for another site: sign in for ${origin.host} with a URI under ${origin.origin}`, 'SIWE_DOMAIN_MISMATCH');
  }
  if (!rules.chainIds.includes(message.chainId)) {
    throw new ApiError(401, `Chain ${message.chainId} is not one makers sign in on: ${rules.chainIds.join(', ')}`, 'SIWE_CHAIN_UNSUPPORTED');
  }
  if (message.expirationTime && message.expirationTime.getTime() <= rules.now)
    throw new ApiError(401, 'The message’s Expiration Time has passed', 'SIWE_MESSAGE_EXPIRED');
  const notBefore = Math.max(message.issuedAt.getTime(), message.notBefore?.getTime() ?? 0);
  if (notBefore > rules.now + CLOCK_SKEW_MS) throw new ApiError(401, 'The message’s Issued At or Not Before is still to come', 'SIWE_MESSAGE_NOT_YET_VALID');
  return { address: message.address, chainId: message.chainId, nonce: message.nonce, expiresAt: message.expirationTime?.getTime() ?? null };
}

/** Line for line the same, time lines by the instant they name (wallets write fractions of a second differently). */
function sameLayout(text: string, rebuilt: string): boolean {
  const [sent, expected] = [text.split('\n'), rebuilt.split('\n')];
  if (sent.length !== expected.length) return false;
  return sent.every((line, index) => {
    const want = expected[index]!;
    if (line === want) return true;
    const label = TIME_LINES.find((prefix) => want.startsWith(prefix));
    return label !== undefined && line.startsWith(label) && Date.parse(line.slice(label.length)) === Date.parse(want.slice(label.length));
  });
}
