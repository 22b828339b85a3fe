import type { StoredDocument } from '../store.js';

/** One stored document. The entry outlives replaces of its document. */
export interface Entry {
  /** Insertion order, kept across replaces: the natural order results come back in. */
  readonly seq: number;
  doc: StoredDocument;
}

export function bySeq(a: Entry, b: Entry): number {
  return a.seq - b.seq;
}
