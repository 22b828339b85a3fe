/**
 * Bearer secrets as the gateway keeps them: API keys and order tokens are 256 random bits,
 * stored only as their SHA-256 (no salt or stretching: there is nothing to guess or
 * precompute, and a fast hash lets the store look a secret up by it), and compared in
 * constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function sameHash(storedHex: string, computedHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const computed = Buffer.from(computedHex, 'hex');
  return stored.length === computed.length && timingSafeEqual(stored, computed);
}
