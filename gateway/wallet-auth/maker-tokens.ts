/**
 * Makers' bearer tokens: 32 random bytes behind a prefix that names them, so a leaked
 * token is recognisable in logs and secret scanners. Only the hash is stored, as for API
 * keys (auth/secret-hash.ts): there is nothing to guess, so a fast unsalted hash the
 * store can look up by is enough.
 */
import { randomBytes } from 'node:crypto';
import { secretHash } from '../auth/secret-hash.js';

const PREFIX = 'pmt_';
const TOKEN = /^pmt_[A-Za-z0-9_-]{43}$/;

export function generateMakerToken(): string {
  return PREFIX + randomBytes(32).toString('base64url');
}

/** Whether it could be a token at all; anything else is refused without a lookup. */
export function looksLikeMakerToken(text: string): boolean {
  return TOKEN.test(text);
}

export function hashMakerToken(token: string): string {
  return secretHash(token);
}
