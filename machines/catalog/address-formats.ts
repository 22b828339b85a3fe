/**
 * How each kind of chain writes an address, and when two spellings are the same
 * address. EVM addresses are hex, so letter case carries no meaning (EIP-55 only uses
 * it as a checksum); Solana addresses are base58, where `a` and `A` are different
 * digits, so they compare exactly as written.
 */
import { base58 } from '@scure/base';
import type { ChainKind } from './chains.js';

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The base58 alphabet (no 0, O, I or l); 32 bytes take 32 to 44 of its digits. */
const BASE58_32_TO_44 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const SOLANA_ADDRESS_BYTES = 32;

export function isEvmAddress(text: string): boolean {
  return EVM_ADDRESS.test(text);
}

/** A Solana account address: the base58 spelling of 32 bytes (an ed25519 key or a program-derived address). */
export function isSolanaAddress(text: string): boolean {
  // The pattern alone also lets through 23 to 31 and 33 bytes, which no account is; decoding tells them apart.
  return BASE58_32_TO_44.test(text) && base58.decode(text).length === SOLANA_ADDRESS_BYTES;
}

export interface AddressFormat {
  /** For messages: `an EVM address (0x and 40 hex digits)`. */
  description: string;
  matches(text: string): boolean;
  same(a: string, b: string): boolean;
}

export const ADDRESS_FORMATS: Readonly<Record<ChainKind, AddressFormat>> = {
  evm: { description: 'an EVM address (0x and 40 hex digits)', matches: isEvmAddress, same: (a, b) => a.toLowerCase() === b.toLowerCase() },
  solana: { description: 'a Solana address (base58, 32 bytes)', matches: isSolanaAddress, same: (a, b) => a === b },
};
