/**
 * Merchant API keys. A key is 32 random bytes behind a prefix naming its environment,
 * so a leaked key is recognisable in logs and secret scanners. Only its hash is
 * stored (secret-hash.ts), which the store indexes for a lookup on every request.
 */
import { randomBytes } from 'node:crypto';
import { secretHash } from './secret-hash.js';

const PREFIXES = { LIVE: 'pk_live_', SANDBOX: 'pk_test_' } as const;
const KEY_BYTES = 32;

export function generateApiKey(environment: 'LIVE' | 'SANDBOX'): string {
  return PREFIXES[environment] + randomBytes(KEY_BYTES).toString('base64url');
}

export function hashApiKey(key: string): string {
  return secretHash(key);
}

/** What a dashboard shows of a key: its prefix and last four characters, e.g. `pk_live_…a1B2`. */
export function apiKeyHint(key: string): string {
  const prefix = Object.values(PREFIXES).find((candidate) => key.startsWith(candidate)) ?? '';
  return `${prefix}…${key.slice(-4)}`;
}
