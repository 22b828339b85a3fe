/** The relayer's keys, from configuration: `0x`-prefixed 32-byte hex, comma-separated. The keys stay inside the accounts. */
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

/** Whether every comma-separated part is a private key; the message never repeats the text, which is secret. */
export function privateKeysProblem(text: string): string | null {
  const parts = text.split(',').map((part) => part.trim());
  const bad = parts.findIndex((part) => !PRIVATE_KEY.test(part));
  if (bad >= 0) return `key ${bad + 1} of ${parts.length} is not 0x followed by 64 hex digits`;
  if (new Set(parts.map((part) => part.toLowerCase())).size !== parts.length) return 'a key is listed twice';
  return null;
}

export function relayerAccounts(text: string): PrivateKeyAccount[] {
  const problem = privateKeysProblem(text);
  if (problem) throw new Error(`RELAYER_PRIVATE_KEYS: ${problem}`);
  return text.split(',').map((part) => privateKeyToAccount(part.trim() as `0x${string}`));
}
