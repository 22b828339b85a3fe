/**
 * An ordered compound index: every document filed under its values for the index's
 * fields, in MongoDB order with each field's direction, so the documents agreeing
 * on leading fields form one contiguous span, already sorted by the fields after.
 */
import { compare } from 'mingo/util';
import type { Entry } from './entry.js';
import type { NumberRange } from './number-range.js';
import { isPlainObject, type Doc } from './paths.js';
import { SortedChunks } from './sorted-chunks.js';

export interface IndexRow {
  /** The document's value for each index field, null when missing. */
  readonly keys: readonly unknown[];
  readonly entry: Entry;
}

/** The rows of one range of an index, valid until the next write to the table. */
export interface Span {
  readonly size: number;
  /** In index order, or the reverse. */
  rows(reverse: boolean): Iterable<IndexRow>;
}

/** Marks a value with no single place in the order. */
const IRREGULAR = Symbol('irregular');

export class OrderedIndex {
  readonly fields: readonly string[];
  readonly directions: readonly (1 | -1)[];
  readonly #paths: readonly (readonly string[])[];
  readonly #rows = new SortedChunks<IndexRow>((a, b) => this.#compareRows(a, b));
  readonly #byId = new Map<string, IndexRow>();
  /**
   * Documents left out of the order: one of their index fields holds an array, which
   * MongoDB would file under each element (a multikey index), or a value such as NaN
   * or a subdocument that `compare` does not order consistently. Rather than model
   * those, the index is not used while it has any.
   */
  readonly #irregular = new Set<string>();

  constructor(key: Record<string, 1 | -1>) {
    this.fields = Object.keys(key);
    this.directions = this.fields.map((field) => key[field]!);
    this.#paths = this.fields.map((field) => field.split('.'));
  }

  /** Whether every document is in the order, so a span holds every document its keys can match. */
  get usable(): boolean {
    return this.#irregular.size === 0;
  }

  /** Files `entry` under the keys of `doc`, its new document. A write that changes no key costs a lookup. */
  put(entry: Entry, doc: Doc): void {
    const id = entry.doc._id;
    const keys = this.#keysOf(doc);
    const row = this.#byId.get(id);
    if (keys && row && sameKeys(row.keys, keys, 0, keys.length)) return;
    this.delete(id);
    if (!keys) {
      this.#irregular.add(id);
      return;
    }
    const filed = { keys, entry };
    this.#rows.insert(filed);
    this.#byId.set(id, filed);
  }

  delete(id: string): void {
    const row = this.#byId.get(id);
    if (row) {
      this.#rows.delete(row);
      this.#byId.delete(id);
    }
    this.#irregular.delete(id);
  }

  /** The rows whose leading keys equal `values`, one per leading field (none: every row). */
  span(values: readonly unknown[]): Span {
    const from = this.#rows.boundary((row) => this.#comparePrefix(row.keys, values) < 0);
    const to = this.#rows.boundary((row) => this.#comparePrefix(row.keys, values) <= 0);
    const rows = this.#rows;
    return { size: rows.countBetween(from, to), rows: (reverse) => rows.between(from, to, reverse) };
  }

  /**
   * The rows whose leading keys equal `values` and whose key of the field after them
   * lies in `range`. The rows agreeing on `values` are in that field's order, so the
   * range is one run of them.
   */
  spanInRange(values: readonly unknown[], range: NumberRange): Span {
    const direction = this.directions[values.length]!;
    // In index order the run starts at the bound that comes first: the lower one ascending, the upper one descending.
    const [start, end] = direction === 1 ? [range.lower, range.upper] : [range.upper, range.lower];
    const [startKeys, endKeys] = [
      [...values, start.value],
      [...values, end.value],
    ];
    const beforeStart = (row: IndexRow) => {
      const order = this.#comparePrefix(row.keys, startKeys);
      return order < 0 || (order === 0 && !start.inclusive);
    };
    const notAfterEnd = (row: IndexRow) => {
      const order = this.#comparePrefix(row.keys, endKeys);
      return order < 0 || (order === 0 && end.inclusive);
    };
    const from = this.#rows.boundary(beforeStart);
    const to = this.#rows.boundary(notAfterEnd);
    const rows = this.#rows;
    return { size: Math.max(0, rows.countBetween(from, to)), rows: (reverse) => rows.between(from, to, reverse) };
  }

  /** The distinct keys of the first field, in index order: one seek each, however many rows hold them. */
  *leadingKeys(): Generator<unknown> {
    let position = this.#rows.boundary(() => false);
    for (let row = this.#rows.at(position); row !== undefined; row = this.#rows.at(position)) {
      const key = row.keys[0];
      yield key;
      position = this.#rows.boundary((other) => this.#comparePrefix(other.keys, [key]) <= 0);
    }
  }

  /** Ties between equal keys are broken by `_id` so the order is total and a row can be found to delete it. */
  #compareRows(a: IndexRow, b: IndexRow): number {
    const order = this.#comparePrefix(a.keys, b.keys);
    if (order !== 0) return order;
    const [idA, idB] = [a.entry.doc._id, b.entry.doc._id];
    return idA < idB ? -1 : idA > idB ? 1 : 0;
  }

  /** Compares on as many leading fields as `prefix` has values. */
  #comparePrefix(keys: readonly unknown[], prefix: readonly unknown[]): number {
    for (let i = 0; i < prefix.length; i++) {
      const order = compareKeys(keys[i], prefix[i]) * this.directions[i]!;
      if (order !== 0) return order;
    }
    return 0;
  }

  /** The document's keys, or null when one of them is irregular. */
  #keysOf(doc: Doc): unknown[] | null {
    const keys = this.#paths.map((path) => keyAt(doc, path));
    return keys.includes(IRREGULAR) ? null : keys;
  }
}

/** Whether two rows' keys are equal on fields `from` up to, not including, `to`. */
export function sameKeys(a: readonly unknown[], b: readonly unknown[], from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (compareKeys(a[i], b[i]) !== 0) return false;
  return true;
}

/**
 * mingo's order, with what an index mostly holds (two strings, two numbers, two
 * booleans, one value twice) compared directly: a write files a row in several
 * indexes, each some twenty comparisons deep, and mingo's general compare classifies
 * both values every time. Most actors have no timer and no pending effect, so their
 * rows in those indexes tie on null and false until the `_id` decides.
 */
function compareKeys(a: unknown, b: unknown): number {
  if (a === b) return 0;
  const type = typeof a;
  if (type === 'boolean' && typeof b === 'boolean') return a ? 1 : -1;
  if (type === typeof b && (type === 'string' || type === 'number')) return (a as string) < (b as string) ? -1 : (a as string) > (b as string) ? 1 : 0;
  return compare(a, b);
}

/**
 * A path's value as the sort sees it (missing is null), walking plain objects only.
 * Anything else on the way (an array, a date, a string) is irregular rather than
 * missing: mingo may resolve paths through such values differently, and a span must
 * hold exactly the documents mingo's equality would match.
 */
function keyAt(doc: Doc, path: readonly string[]): unknown {
  let value: unknown = doc;
  for (const part of path) {
    if (value === null || value === undefined) return null;
    if (!isPlainObject(value)) return IRREGULAR;
    value = value[part];
  }
  return isOrderable(value) ? (value ?? null) : IRREGULAR;
}

/** Values `compare` orders totally and consistently with equality: null, strings, booleans, numbers but NaN, valid dates. */
function isOrderable(value: unknown): boolean {
  switch (typeof value) {
    case 'undefined':
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return !Number.isNaN(value);
    default:
      return value === null || (value instanceof Date && !Number.isNaN(value.getTime()));
  }
}
