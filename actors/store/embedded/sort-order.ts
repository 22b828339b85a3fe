/** MongoDB's sort order, the one every sorted result of the embedded store follows. */
import { compare } from 'mingo/util';
import type { SortSpec } from '../store.js';
import { valuesAt, type Doc } from './paths.js';

/**
 * Sorts stably in MongoDB order. mingo's own sort is not used because it orders an
 * array by the array as a whole; MongoDB sorts by its smallest element ascending and
 * its largest descending.
 */
export function sortDocuments(docs: Doc[], sort: SortSpec): Doc[] {
  const fields = Object.entries(sort);
  const keyed = docs.map((doc) => ({ doc, keys: fields.map(([path, direction]) => sortKey(doc, path, direction)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < fields.length; i++) {
      const order = compare(a.keys[i], b.keys[i]) * fields[i]![1];
      if (order !== 0) return order;
    }
    return 0;
  });
  return keyed.map(({ doc }) => doc);
}

/**
 * A missing field sorts as null. An empty array sorts before null in both directions,
 * which mingo's `compare` gives `undefined` (it orders undefined before null).
 */
function sortKey(doc: Doc, path: string, direction: 1 | -1): unknown {
  const values: unknown[] = [];
  for (const value of valuesAt(doc, path)) {
    if (!Array.isArray(value)) values.push(value ?? null);
    else if (value.length === 0) values.push(undefined);
    else for (const item of value) values.push(item ?? null);
  }
  let key = values[0];
  for (const value of values) if (compare(value, key) * direction < 0) key = value;
  return key;
}
