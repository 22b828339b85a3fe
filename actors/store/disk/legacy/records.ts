/**
 * What a journal store's frame says: the whole document after a change (`put`),
 * or the ids a delete removed. Writing results rather than the calls that made them
 * keeps replay free of filters and update operators, so it cannot answer differently
 * from the run that wrote it; a deleteMany is one record, so it replays whole or not at all.
 */
import type { StoredDocument } from '../../store.js';
import { decodeDocument } from '../value-codec.js';

export type Change = { collection: string; put: StoredDocument } | { collection: string; delete: string[] };

export function readChange(payload: string): Change {
  const record = JSON.parse(payload) as { c: string; t?: 1; p?: unknown; d?: string[] };
  if (record.d) return { collection: record.c, delete: record.d };
  return { collection: record.c, put: decodeDocument(record.p, record.t === 1) as StoredDocument };
}
