/**
 * A customer's crypto address on a payout rail's network (document 2: payout-quote and
 * send-to-address, 422 CASHOUT_ADDRESS_NOT_ALLOWED): checked in the network's format and
 * written the two ways the payout reports it. payoutTransfer.address is canonical (EVM
 * EIP-55, bech32 lower-case, base58 as entered); settlement.sentTo is the same but EVM
 * lower-case. The all-zero form of every kind is refused as ZERO: nobody holds its key.
 * The caller trims the input; anything with a space inside is not in any format.
 */
import { base58 } from '@scure/base';
import { getAddress, hexToBytes } from 'viem';
import { base58checkPayload, bitcoinAddressPayload, canonicalBitcoinAddress } from './bitcoin-address.js';
import { type DestinationKind, destinationNetwork, sameAddress } from './destination-catalog.js';

export type DestinationAddress = { ok: true; address: string; sentTo: string } | { ok: false; reason: 'INVALID' | 'ZERO' };

/** document 2's responseObject.reason of CASHOUT_ADDRESS_NOT_ALLOWED. */
export type AddressRefusalReason = 'INVALID' | 'ZERO' | 'OWN_WALLET' | 'ESCROW' | 'TOKEN';

/** The EVM addresses a payout must never send to, whatever the network. */
export interface PayoutOwnAddresses {
  /** The customer's embedded wallet: the payout's USDC is already there. */
  ownWallet: string;
  /** The escrow contract listings are made on. */
  escrow: string;
}

interface Parsed {
  address: string;
  sentTo: string;
  /** The bytes the address stands for; all zero is the ZERO form. */
  body: Uint8Array;
}

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** The base58 alphabet (no 0, O, I or l); 32 bytes take 32 to 44 of its digits. */
const BASE58_32_TO_44 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const TRON_PREFIX = 0x41;
/** Transparent mainnet prefixes: t1 pay-to-pubkey-hash and t3 pay-to-script-hash (the Zcash protocol specification's transparent address encoding). */
const ZCASH_PREFIXES: readonly (readonly [number, number])[] = [
  [0x1c, 0xb8],
  [0x1c, 0xbd],
];
const HASH_BYTES = 20;
const SOLANA_KEY_BYTES = 32;

function parseEvm(raw: string): Parsed | null {
  if (!EVM_ADDRESS.test(raw)) return null;
  const hex = raw.slice(2);
  const checksummed = getAddress(raw.toLowerCase());
  // One case throughout carries no checksum (EIP-55); mixed case is a checksum and must be right.
  if (hex !== hex.toLowerCase() && hex !== hex.toUpperCase() && raw !== checksummed) return null;
  return { address: checksummed, sentTo: checksummed.toLowerCase(), body: hexToBytes(checksummed) };
}

function parseBitcoin(raw: string): Parsed | null {
  const body = bitcoinAddressPayload(raw);
  if (!body) return null;
  const canonical = canonicalBitcoinAddress(raw);
  return { address: canonical, sentTo: canonical, body };
}

function parseSolana(raw: string): Parsed | null {
  if (!BASE58_32_TO_44.test(raw)) return null;
  const body = base58.decode(raw);
  return body.length === SOLANA_KEY_BYTES ? { address: raw, sentTo: raw, body } : null;
}

/** `T…`: base58check of 0x41 and the account's 20 bytes. */
function parseTron(raw: string): Parsed | null {
  const payload = base58checkPayload(raw);
  if (payload?.length !== 1 + HASH_BYTES || payload[0] !== TRON_PREFIX) return null;
  return { address: raw, sentTo: raw, body: payload.subarray(1) };
}

/** Transparent only: the provider delivers ZEC to t1 and t3 addresses, never to shielded (zs…) or unified (u1…) ones. */
function parseZcash(raw: string): Parsed | null {
  const payload = base58checkPayload(raw);
  if (payload?.length !== 2 + HASH_BYTES) return null;
  if (!ZCASH_PREFIXES.some(([first, second]) => payload[0] === first && payload[1] === second)) return null;
  return { address: raw, sentTo: raw, body: payload.subarray(2) };
}

const PARSERS: Readonly<Record<DestinationKind, (raw: string) => Parsed | null>> = {
  evm: parseEvm,
  bitcoin: parseBitcoin,
  solana: parseSolana,
  tron: parseTron,
  zcash: parseZcash,
};

/** `raw` checked in the format of `rail`'s network; on a rail that names no network no address is valid. */
export function destinationAddress(rail: string, raw: string): DestinationAddress {
  const kind = destinationNetwork(rail)?.kind;
  const parsed = kind ? PARSERS[kind](raw) : null;
  if (!parsed) return { ok: false, reason: 'INVALID' };
  if (parsed.body.every((byte) => byte === 0)) return { ok: false, reason: 'ZERO' };
  return { ok: true, address: parsed.address, sentTo: parsed.sentTo };
}

/**
 * Why a payout may not send to `raw` on `rail`, or null when it may. Besides a malformed or
 * zero address: the customer's embedded wallet and the escrow, on every EVM network (on Base
 * the send would pay no one; elsewhere it lands where the customer's wallet app does not
 * look), and a token contract of the network's catalog, since a transfer to a token's own
 * contract burns it.
 */
export function addressRefusal(rail: string, raw: string, own: PayoutOwnAddresses): { reason: AddressRefusalReason } | null {
  const checked = destinationAddress(rail, raw);
  if (!checked.ok) return { reason: checked.reason };
  const { kind, tokens } = destinationNetwork(rail)!;
  if (kind === 'evm' && sameAddress(kind, checked.address, own.ownWallet)) return { reason: 'OWN_WALLET' };
  if (kind === 'evm' && sameAddress(kind, checked.address, own.escrow)) return { reason: 'ESCROW' };
  if (tokens.some((token) => sameAddress(kind, token.address, checked.address))) return { reason: 'TOKEN' };
  return null;
}
