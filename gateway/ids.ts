/**
 * Resource ids: a prefix and 24 base62 characters (143 bits), random, or derived
 * from a secret and the parts that must map to one id (an idempotency key), so that
 * concurrent duplicates address the same actor and the id stays unguessable. Ids
 * arriving from outside are held to the same shape before they address anything.
 */
import { createHmac } from 'node:crypto';
import { pooledRandomBytes } from './random-pool.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const LENGTH = 24;

/** Exactly the ids `newId` and `derivedId` make with this prefix (`[0-9A-Za-z]` is ALPHABET). */
export function idPattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}_[0-9A-Za-z]{${LENGTH}}$`);
}

export function newId(prefix: string): string {
  return `${prefix}_${base62(pooledRandomBytes(32))}`;
}

export function derivedId(prefix: string, secret: string, ...parts: string[]): string {
  const mac = createHmac('sha256', secret);
  for (const part of parts) mac.update(`${part.length}:${part}`);
  return `${prefix}_${base62(mac.digest())}`;
}

/** 62^4: a remainder below it times 2^16, plus a limb, is still exact in a double. */
const STEP = 62 ** 4;

/**
 * The lowest LENGTH base-62 digits, lowest first, of the big-endian number in `bytes`:
 * long division by 62^4 over 16-bit limbs, four digits per division, in doubles rather
 * than BigInt (several times faster, the same digits). Derived ids depend on these
 * digits never changing.
 */
function base62(bytes: Buffer): string {
  const limbs = new Array<number>(bytes.length / 2);
  for (let i = 0; i < limbs.length; i++) limbs[i] = bytes.readUInt16BE(2 * i);
  let out = '';
  while (out.length < LENGTH) {
    let remainder = 0;
    for (let i = 0; i < limbs.length; i++) {
      const current = remainder * 65_536 + limbs[i]!;
      const quotient = Math.floor(current / STEP);
      limbs[i] = quotient;
      remainder = current - quotient * STEP;
    }
    for (let digit = 0; digit < 4; digit++) {
      out += ALPHABET[remainder % 62];
      remainder = Math.floor(remainder / 62);
    }
  }
  return out;
}
