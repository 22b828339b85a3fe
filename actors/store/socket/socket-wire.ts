/** The socket store's wire: newline-delimited JSON requests and replies, bigint, Date and RegExp safe. */
import { fromJson, toJson } from '../../codec.js';
import { DuplicateKeyError } from '../../errors.js';

/** Operations of the wire protocol. Collection ops take the collection name first. */
export type StoreOp = 'collection' | 'status' | 'findOne' | 'find' | 'count' | 'insertOne' | 'replaceOne' | 'updateOne' | 'deleteOne' | 'deleteMany';

export interface WireStoreRequest {
  id: number;
  op: StoreOp;
  args: unknown[];
}

export interface WireStoreError {
  name: string;
  message: string;
  collection?: string;
  key?: string;
}

export type WireStoreReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: WireStoreError };

const DATE_TAG = '__date';
const REGEXP_TAG = '__regexp';

function tag(value: unknown): unknown {
  if (value instanceof Date) return { [DATE_TAG]: value.toISOString() };
  if (value instanceof RegExp) return { [REGEXP_TAG]: value.source, flags: value.flags };
  if (Array.isArray(value)) return value.map(tag);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = tag(item);
    return out;
  }
  return value;
}

function untag(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(untag);
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    if (keys.length === 1 && keys[0] === DATE_TAG && typeof record[DATE_TAG] === 'string') return new Date(record[DATE_TAG]);
    if (keys.length === 2 && typeof record[REGEXP_TAG] === 'string' && typeof record.flags === 'string') {
      return new RegExp(record[REGEXP_TAG], record.flags);
    }
    for (const key of keys) record[key] = untag(record[key]);
    return record;
  }
  return value;
}

/** One line of the wire (without the newline): bigint, Date and RegExp safe. */
export function encodeWire(value: unknown): string {
  return toJson(tag(value));
}

export function decodeWire<T = unknown>(line: string): T {
  return untag(fromJson(line)) as T;
}

export function errorToWire(error: unknown): WireStoreError {
  if (error instanceof DuplicateKeyError) return { name: error.name, message: error.message, collection: error.collection, key: error.key };
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The remote error, rebuilt as the same class where the runtime cares (DuplicateKeyError). */
export function errorFromWire(wire: WireStoreError): Error {
  if (wire.name === 'DuplicateKeyError') return new DuplicateKeyError(wire.collection ?? '', wire.key ?? '');
  const error = new Error(wire.message);
  error.name = wire.name;
  return error;
}
