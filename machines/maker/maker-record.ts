/**
 * Document 3's maker record (legacy format), how it is keyed and how two requests for
 * one payee are compared. A record is one payee on one processor: its hashedOnchainId is
 * keccak256 of the normalised payee id, the value a deposit's payeeDetails holds and the
 * payee directory (actors/market/payee-directory.ts) keys payees by.
 */
import { idHash } from '../id-hash.js';
import type { ProcessorName } from './deposit-data.js';

export interface MakerRecord {
  id: number;
  processorName: string;
  offchainId: string;
  telegramUsername: string | null;
  hashedOnchainId: string;
  isBusiness: boolean;
  revoked: boolean;
  metadata: Record<string, unknown> | null;
  createdAt: string;
}

/**
 * The record as the maker actor keeps it: metadata as canonical JSON text, because the
 * store's codec reads `{ "__bigint": … }` as a number and MongoDB refuses some keys (`$…`),
 * and a maker's free-form object may hold either.
 */
export type StoredMakerRecord = Omit<MakerRecord, 'metadata'> & { metadataJson: string | null };

/** What a maker says about themselves beside the payee; two creates of one payee must agree on it. */
export interface MakerDetails {
  telegramUsername: string | null;
  isBusiness: boolean;
  metadataJson: string | null;
}

/** keccak256 of the payee id (machines/id-hash.ts), as the enclave and the payee directory hash it. */
export const payeeHash = idHash;

export const HASHED_ONCHAIN_ID = /^0x[0-9a-fA-F]{64}$/;

/** The maker actor of a payee on a processor: one per pair, so that concurrent creates meet in one actor. */
export function makerActorId(processor: ProcessorName, hashedOnchainId: string): string {
  return `${processor}-${hashedOnchainId.slice(2).toLowerCase()}`;
}

/** Telegram usernames: 5 to 32 letters, digits or underscores, starting with a letter; kept without the @. */
export const TELEGRAM_USERNAME = {
  pattern: /^@?[A-Za-z][A-Za-z0-9_]{4,31}$/,
  rule: 'a Telegram username: 5 to 32 letters, digits or underscores, starting with a letter, with or without the @',
  normalise: (raw: string) => (raw.startsWith('@') ? raw.slice(1) : raw),
};

/** Telegram usernames are case-insensitive on Telegram; the rest compares exactly. */
export function sameDetails(stored: MakerDetails, asked: MakerDetails): boolean {
  return (
    (stored.telegramUsername?.toLowerCase() ?? null) === (asked.telegramUsername?.toLowerCase() ?? null) &&
    stored.isBusiness === asked.isBusiness &&
    stored.metadataJson === asked.metadataJson
  );
}

export function toMakerRecord(stored: StoredMakerRecord): MakerRecord {
  const { metadataJson, ...fields } = stored;
  return { ...fields, metadata: metadataJson === null ? null : (JSON.parse(metadataJson) as Record<string, unknown>) };
}
