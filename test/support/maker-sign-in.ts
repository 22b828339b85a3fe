/**
 * Signing a maker in over HTTP, as a wallet would: ask for a nonce, build the EIP-4361
 * message with viem's createSiweMessage on the node's clock, sign it with a local
 * account, and send both. `fields` changes the message, for the refusals.
 */
import type { LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage, type SiweMessage } from 'viem/siwe';
import type { ApiResponse, TestGateway } from './gateway.js';

export const newWallet = (): LocalAccount => privateKeyToAccount(generatePrivateKey());

export interface SignedMessage {
  message: string;
  signature: `0x${string}`;
  nonce: string;
}

export async function signedMessage(gateway: TestGateway, account: LocalAccount, fields: Partial<SiweMessage> = {}): Promise<SignedMessage> {
  const challenge = (await gateway.request('POST', '/v2/auth/nonce')).body.responseObject;
  const message = createSiweMessage({
    domain: challenge.domain,
    address: account.address,
    statement: challenge.statement,
    uri: challenge.uri,
    version: '1',
    chainId: 8453,
    nonce: challenge.nonce,
    issuedAt: new Date(gateway.clock.now()),
    ...fields,
  });
  return { message, signature: await account.signMessage({ message }), nonce: challenge.nonce };
}

export function verify(gateway: TestGateway, signed: { message: string; signature: string }): Promise<ApiResponse> {
  return gateway.request('POST', '/v2/auth/verify', { body: { message: signed.message, signature: signed.signature } });
}

/** A signed-in wallet: its bearer token and the headers that send it. */
export async function signIn(
  gateway: TestGateway,
  account: LocalAccount = newWallet(),
): Promise<{ account: LocalAccount; token: string; headers: Record<string, string> }> {
  const answer = await verify(gateway, await signedMessage(gateway, account));
  if (answer.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(answer.body)}`);
  const { token } = answer.body.responseObject;
  return { account, token, headers: { authorization: `Bearer ${token}` } };
}
