/**
 * Bitcoin mainnet addresses a refund or a payout can go to (document 2: bech32 `bc1…`, or
 * legacy `1…` and `3…`): segwit v0 in bech32, v1 and later in bech32m (BIP 173 and 350),
 * legacy in base58check with its version byte. Decoded with @scure/base, checksums included.
 * A bc1 address is case-insensitive and kept lower-case; a legacy one keeps its case.
 */
import { sha256 } from '@noble/hashes/sha2';
import { bech32, bech32m, createBase58check } from '@scure/base';

const base58check = createBase58check(sha256);
/** Pay-to-pubkey-hash (1…) and pay-to-script-hash (3…) on mainnet. */
const LEGACY_VERSIONS = new Set([0x00, 0x05]);

/** The bytes under Bitcoin's base58check (double-SHA-256 checksum), which Tron and transparent Zcash addresses use too; null when the checksum or an alphabet letter fails. */
export function base58checkPayload(text: string): Uint8Array | null {
  try {
    return base58check.decode(text);
  } catch {
    return null;
  }
}

function segwitProgram(address: string): Uint8Array | null {
  const lower = address.toLowerCase();
  if (address !== lower && address !== address.toUpperCase()) return null;
  for (const codec of [bech32, bech32m]) {
    const decoded = codec.decodeUnsafe(lower as `${string}1${string}`, 90);
    if (decoded?.prefix !== 'bc' || decoded.words.length === 0) continue;
    const version = decoded.words[0]!;
    // Version 0 is bech32, every later version bech32m (BIP 350).
    if ((version === 0) !== (codec === bech32) || version > 16) continue;
    const program = codec.fromWordsUnsafe(decoded.words.slice(1));
    if (!program || program.length < 2 || program.length > 40) continue;
    if (version === 0 && program.length !== 20 && program.length !== 32) continue;
    return program;
  }
  return null;
}

function legacyHash(address: string): Uint8Array | null {
  const payload = base58checkPayload(address);
  return payload?.length === 21 && LEGACY_VERSIONS.has(payload[0]!) ? payload.subarray(1) : null;
}

/** What a mainnet address pays to: the witness program of a bc1 address, the 20-byte hash of a legacy one; null for anything else. */
export function bitcoinAddressPayload(address: string): Uint8Array | null {
  if (/^bc1/i.test(address)) return segwitProgram(address);
  return /^[13]/.test(address) ? legacyHash(address) : null;
}

export function isBitcoinAddress(address: string): boolean {
  return bitcoinAddressPayload(address) !== null;
}

/** How a refund address is kept: bech32 lower-case, legacy as written. */
export function canonicalBitcoinAddress(address: string): string {
  return /^bc1/i.test(address) ? address.toLowerCase() : address;
}
