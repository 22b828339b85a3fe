/**
 * Random bytes from the CSPRNG, drawn a few thousand at a time as node's randomUUID
 * draws its own: one call into OpenSSL per 128 ids or tokens rather than one each,
 * which on the create path cost as much as the rest of building the order's event.
 * The bytes handed out are never handed out again.
 */
import { randomBytes } from 'node:crypto';

const POOL_BYTES = 32 * 128;
let pool = Buffer.alloc(0);
let offset = 0;

/** `size` fresh random bytes (at most POOL_BYTES); the caller may keep them. */
export function pooledRandomBytes(size: number): Buffer {
  if (size > POOL_BYTES) return randomBytes(size);
  if (offset + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    offset = 0;
  }
  return pool.subarray(offset, (offset += size));
}
