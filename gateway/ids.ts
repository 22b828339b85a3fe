/**
 * Resource ids: a prefix and 24 base62 characters (143 bits), random, or derived
 * from a secret and the parts that must map to one id (an idempotency key), so that
 * concurrent duplicates address the same actor and the id stays unguessable. Ids
 * arriving from outside are held to the same shape before they address anything.
 */
import { createHmac, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 24;

/** Exactly the ids `newId` and `derivedId` make with this prefix (`[0-9A-Za-z]` is ALPHABET). */
export function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_[0-9A-Za-z]{${LENGTH}}$`);
}

export function newId(prefix: string): string {
  return `${prefix}_${base62(randomBytes(32))}`;
}

export function derivedId(prefix: string, secret: string, ...parts: string[]): string {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(`${part.length}:${part}`);
  return `${prefix}_${base62(mac.digest())}`;
}

function base62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  for (let i = 0; i < LENGTH; i++) {
    out += ALPHABET[Number(value % 62n)];
    value /= 62n;
  }
  return out;
}
