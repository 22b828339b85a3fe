/**
 * How the chain names a platform id, a currency code, a payee id or a payment id: keccak256
 * of its UTF-8 text. Deposits, intents, attestations and the orderbook all compare these
 * hashes, so every side hashes through this one function.
 */
import { keccak256, toBytes, type Hex } from 'viem';

export function idHash(text: string): Hex {
  return keccak256(toBytes(text));
}

/** Two hex strings (hashes, addresses) name the same thing whatever their case; a missing one names nothing. */
export function sameHex(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && a.toLowerCase() === b.toLowerCase();
}
