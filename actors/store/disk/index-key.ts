/**
 * Keys of an ordered index on disk: LMDB keeps keys in byte order, so each field's
 * value is written as bytes whose order is mingo's order for the values an ordered
 * index holds (null < numbers < strings < booleans < dates; strings by UTF-16 code
 * units, as JavaScript's `<` compares them). A descending field's bytes are inverted.
 * Every field's bytes are self-delimiting, so inverting one keeps the order of the
 * whole key and a prefix of fields is a prefix of bytes. The document's `_id` ends the
 * key, so keys are unique and ties fall in `_id` order.
 */

const NULL = 1;
const NUMBER = 2;
const STRING = 3;
const BOOLEAN = 4;
const DATE = 5;

/** A byte no UTF-8 string holds: a prefix followed by it sorts after every key under the prefix. */
export const AFTER_PREFIX = 0xff;

/** One field's value as ordered bytes, or null when it has no single place in the order (an array, an object, NaN). */
export function fieldBytes(value: unknown, direction: 1 | -1): Buffer | null {
  const bytes = ascendingBytes(value);
  if (!bytes) return null;
  if (direction === -1) for (let i = 0; i < bytes.length; i++) bytes[i] = ~bytes[i]! & 0xff;
  return bytes;
}

/** The whole key: the fields' bytes in order, then the `_id`. */
export function rowKey(fields: readonly Buffer[], id: string): Buffer {
  return Buffer.concat([...fields, Buffer.from(id, 'utf8')]);
}

function ascendingBytes(value: unknown): Buffer | null {
  if (value === null || value === undefined) return Buffer.from([NULL]);
  switch (typeof value) {
    case 'number':
      return Number.isNaN(value) ? null : numberBytes(NUMBER, value);
    case 'string':
      return stringBytes(value);
    case 'boolean':
      return Buffer.from([BOOLEAN, value ? 1 : 0]);
  }
  if (value instanceof Date) {
    const time = value.getTime();
    return Number.isNaN(time) ? null : numberBytes(DATE, time);
  }
  return null;
}

/** IEEE 754 big-endian with the sign bit flipped (and every bit of a negative number), so bytes order as numbers do; -0 is 0. */
function numberBytes(type: number, value: number): Buffer {
  const bytes = Buffer.alloc(9);
  bytes[0] = type;
  bytes.writeDoubleBE(value === 0 ? 0 : value, 1);
  if (bytes[1]! & 0x80) for (let i = 1; i < 9; i++) bytes[i] = ~bytes[i]! & 0xff;
  else bytes[1] = bytes[1]! | 0x80;
  return bytes;
}

/**
 * UTF-16 code units big-endian, a zero byte escaped as 0x00 0xff and the end marked
 * 0x00 0x01: the end sorts before any unit, so a string sorts before its extensions.
 */
function stringBytes(value: string): Buffer {
  const out: number[] = [STRING];
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    pushEscaped(out, unit >> 8);
    pushEscaped(out, unit & 0xff);
  }
  out.push(0, 1);
  return Buffer.from(out);
}

function pushEscaped(out: number[], byte: number): void {
  if (byte === 0) out.push(0, 0xff);
  else out.push(byte);
}
