/**
 * Snapshots, events and replies hold bigint money; neither JSON nor BSON carries
 * bigint. This codec tags each bigint as `{ __bigint: "<digits>" }` on the way out
 * and restores it on the way in, so stores and transports only see plain data.
 */
const TAG = '__bigint';

export type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

export function encode(value: unknown): Encoded {
  if (typeof value === 'bigint') return { [TAG]: value.toString() };
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : encode(item)));
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const out: { [key: string]: Encoded } = {};
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined && typeof item !== 'function') out[key] = encode(item);
    }
    return out;
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  throw new TypeError(`cannot encode a value of type ${typeof value}`);
}

export function decode<T = unknown>(value: unknown): T {
  return decodeValue(value) as T;
}

function decodeValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeValue);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 1 && entries[0]![0] === TAG && typeof entries[0]![1] === 'string') {
      return BigInt(entries[0]![1]);
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries) out[key] = decodeValue(item);
    return out;
  }
  return value;
}

export function toJson(value: unknown): string {
  return JSON.stringify(encode(value));
}

export function fromJson<T = unknown>(text: string): T {
  return decode<T>(JSON.parse(text));
}
