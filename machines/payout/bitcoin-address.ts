/**
 * Bitcoin mainnet addresses a refund can go to (document 2: bech32 `bc1…`, or legacy `1…`
 * and `3…`): segwit v0 in bech32, v1 and later in bech32m (BIP 173 and 350), legacy in
 * base58check with its version byte. Decoded with @scure/base, checksums included. A bc1
 * address is case-insensitive and kept lower-case; a legacy one keeps its case.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bech32, bech32m, createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);
/** Pay-to-pubkey-hash (1…) and pay-to-script-hash (3…) on mainnet. */
const LEGACY_VERSIONS = new Set([0x00, 0x05]);

function isSegwit(address: string): boolean {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return false;
  for (const codec of [bech32, bech32m]) {
    const decoded = codec.decodeUnsafe(lower as `${string}1${string}`, 90);
    if (decoded?.prefix !== 'bc' || decoded.words.length === 0) continue;
    const version = decoded.words[0]!;
    // Version 0 is bech32, every later version bech32m (BIP 350).
    if ((version === 0) !== (codec === bech32) || version > 16) continue;
    const program = codec.fromWordsUnsafe(decoded.words.slice(1));
    if (!program || program.length < 2 || program.length > 40) continue;
    if (version === 0 && program.length !== 20 && program.length !== 32) continue;
    return true;
  }
  return false;
}

function isLegacy(address: string): boolean {
  try {
    const payload = base58check.decode(address);
    return payload.length === 21 && LEGACY_VERSIONS.has(payload[0]!);
  } catch {
    return false;
  }
}

export function isBitcoinAddress(address: string): boolean {
  return /^bc1/i.test(address) ? isSegwit(address) : /^[13]/.test(address) && isLegacy(address);
}

/** How a refund address is kept: bech32 lower-case, legacy as written. */
export function canonicalBitcoinAddress(address: string): string {
  return /^bc1/i.test(address) ? address.toLowerCase() : address;
}
