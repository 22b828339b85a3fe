/**
 * The parts of a MongoDB-shaped query both embedded engines share (the tables in
 * memory, and LMDB on disk): which values a condition pins, the keys a document holds
 * in an equality or unique index, the filter test, projection, update operators and
 * paging. One set of these is what keeps the two engines' answers the same.
 */
import { Query, find } from 'mingo';
import type { Modifier } from 'mingo/updater';
import { resolve } from 'mingo/util';
import type { Filter, Projection, StoredDocument, UpdateSpec } from '../store.js';
import { deepFreeze } from '../deep-freeze.js';
import { nativeFilter } from './native-filter.js';
import { isPlainObject, valuesAt, type Doc } from './paths.js';

/** MongoDB keys an empty array as `undefined`, which is distinct from null. */
const EMPTY_ARRAY_KEY = 'u';
/** Leads the posting key of every value but a string (postingKey). */
const OTHER_KEY = '\u0000';

export interface UniqueIndex {
  readonly name: string;
  readonly fields: readonly string[];
  /** Whether a document belongs in a partial index; null for a full one. */
  readonly partial: ((doc: Doc) => boolean) | null;
  /** Index key -> `_id` of the document holding it. */
  readonly owners: Map<string, string>;
}

export interface IndexKey {
  key: string;
  value: Doc;
}

/** Items `skip` up to `skip + limit` of `items`, reading no further. */
export function page<T>(items: Iterable<T>, skip: number, limit: number): T[] {
  const out: T[] = [];
  if (limit <= 0) return out;
  let index = 0;
  for (const item of items) {
    if (index++ < skip) continue;
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

/** mingo's query, except where the store's own test decides (embedded/native-filter.ts). */
export function compileFilter(filter: Filter): (doc: Doc) => boolean {
  let query: Query | undefined;
  const byMingo = (doc: Doc) => (query ??= new Query(filter)).test(doc);
  const native = nativeFilter(filter);
  return native ? (doc) => native(doc) ?? byMingo(doc) : byMingo;
}

/**
 * The literal values a filter condition requires a field to equal one of, or null when
 * it is anything else. Regular expressions (which match patterns) cannot be looked up,
 * and neither can arrays (addKeys files no array whole), so they fall back to a scan.
 * Null can: a document whose path resolves to nothing is filed under null's key, as
 * mingo's `$eq` takes a missing field to equal null.
 */
export function equalityValues(condition: unknown): unknown[] | null {
  let values: unknown[];
  if (isPlainObject(condition) && Object.keys(condition).some((key) => key.startsWith('$'))) {
    if ('$eq' in condition) values = [condition.$eq];
    else if (Array.isArray(condition.$in)) values = condition.$in;
    else return null;
  } else {
    values = [condition];
  }
  return values.every((value) => !(value instanceof RegExp) && !Array.isArray(value)) ? values : null;
}

/**
 * The values an `$all` requires an array to hold, each by equality, or null when it
 * requires anything a posting set cannot answer: no values (which match nothing), a
 * regular expression, an array or an operator (`$elemMatch`).
 */
export function allValues(condition: unknown): unknown[] | null {
  if (!isPlainObject(condition) || !Array.isArray(condition.$all) || condition.$all.length === 0) return null;
  const values: unknown[] = condition.$all;
  const literal = (value: unknown) =>
    !(value instanceof RegExp) && !Array.isArray(value) && !(isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$')));
  return values.every(literal) ? values : null;
}

/** What mingo's evaluation of a condition on `path` reads in `doc`. */
export function indexedValue(doc: Doc, path: string): unknown {
  return resolve(doc, path, { unwrapArray: true });
}

/**
 * The keys under which an equality, `$in` or `$all` can match a document whose path
 * resolves to `value`: the value, its elements and theirs, because a lookup must find
 * every document mingo's evaluation would match, quirks included. An array is filed
 * under its elements only: its whole would be a key of its own per document (an
 * order's search grams), costing a long string and a posting set each, for a whole-array
 * equality that no query asks and that a scan answers instead.
 */
export function equalityKeys(value: unknown): ReadonlySet<string> {
  const keys = new Set<string>();
  addKeys(value, keys);
  return keys;
}

/** Whether two resolved values are one value, or arrays of the very same elements in order: then their keys are the same. */
export function sameElements(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function addKeys(value: unknown, keys: Set<string>): void {
  if (Array.isArray(value)) for (const item of value) addKeys(item, keys);
  else keys.add(postingKey(value));
}

/**
 * A value's key in an equality index: a string is its own key, so an order's grams are
 * filed under the very strings its view holds rather than a tagged copy of each. Every
 * other value (and a string that starts with NUL, which no other key of a string can)
 * is NUL and its type-tagged encoding, so no two values share a key.
 */
export function postingKey(value: unknown): string {
  return typeof value === 'string' && !value.startsWith(OTHER_KEY) ? value : `${OTHER_KEY}${encode(value)}`;
}

/** The keys a document holds in a unique index: one per combination of its fields' keys. */
export function uniqueKeys(index: Pick<UniqueIndex, 'fields' | 'partial'>, doc: StoredDocument): IndexKey[] {
  if (index.partial && !index.partial(doc)) return [];
  let keys: { parts: string[]; value: Doc }[] = [{ parts: [], value: {} }];
  for (const field of index.fields) {
    const values = new Map<string, unknown>();
    for (const value of valuesAt(doc, field)) {
      const items = Array.isArray(value) ? value : [value];
      if (items.length === 0) values.set(EMPTY_ARRAY_KEY, []);
      for (const item of items) values.set(encode(item), item ?? null);
    }
    keys = keys.flatMap(({ parts, value }) => Array.from(values, ([key, item]) => ({ parts: [...parts, key], value: { ...value, [field]: item } })));
  }
  return keys.map(({ parts, value }) => ({ key: parts.join('\u0000'), value }));
}

/**
 * A string key for a value under MongoDB equality: type-tagged so 1 and '1' differ.
 * Object keys are sorted because mingo matches subdocuments regardless of key order
 * (MongoDB does not), and a lookup must never miss a document mingo would match.
 */
export function encode(value: unknown): string {
  if (value === null || value === undefined) return 'n';
  switch (typeof value) {
    case 'number':
      return `d${value}`;
    case 'bigint':
      return `l${value}`;
    case 'string':
      return `s${JSON.stringify(value)}`;
    case 'boolean':
      return value ? 't' : 'f';
  }
  if (value instanceof Date) return `D${value.getTime()}`;
  if (value instanceof RegExp) return `r${String(value)}`;
  if (Array.isArray(value)) return `[${value.map(encode).join(',')}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${encode(value[key])}`).join(',')}}`;
  }
  return `?${String(value)}`;
}

export function describeKey(indexName: string, value: Doc): string {
  return `${indexName} ${JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))}`;
}

/** mingo types `$unset` values as '' only; MongoDB and mingo both ignore the value. */
export function toModifier(update: UpdateSpec): Modifier<StoredDocument> {
  const { $unset, ...rest } = update;
  return $unset ? { ...rest, $unset: Object.fromEntries(Object.keys($unset).map((path) => [path, ''])) } : rest;
}

export function project(docs: Doc[], projection: Projection | undefined): Doc[] {
  if (!projection || Object.keys(projection).length === 0) return docs;
  const fields = Object.entries(projection);
  // Top-level fields need no query engine; mingo's projection compiles one per call.
  if (fields.every(([field]) => /^[^$.]+$/.test(field) && field !== '__proto__')) {
    const others = fields.filter(([field]) => field !== '_id');
    const withId = projection._id !== 0;
    // The field lists are worked out once per call, not once per document.
    if (others.length === 0) {
      const noId = new Set(['_id']);
      return docs.map((doc) => (withId ? pick(doc, [], true) : omit(doc, noId)));
    }
    if (others.every(([, flag]) => flag === 1)) {
      const kept = others.map(([field]) => field);
      return docs.map((doc) => pick(doc, kept, withId));
    }
    if (others.every(([, flag]) => flag === 0)) {
      const dropped = new Set(fields.filter(([, flag]) => flag === 0).map(([field]) => field));
      return docs.map((doc) => omit(doc, dropped));
    }
  }
  return find(docs, {}, projection).all();
}

function pick(doc: Doc, fields: readonly string[], withId: boolean): Doc {
  const out: Doc = {};
  if (withId && Object.hasOwn(doc, '_id')) out._id = doc._id;
  for (const field of fields) if (Object.hasOwn(doc, field)) out[field] = doc[field];
  return out;
}

function omit(doc: Doc, fields: ReadonlySet<string>): Doc {
  const out: Doc = {};
  for (const field of Object.keys(doc)) if (!fields.has(field)) out[field] = doc[field];
  return out;
}

/**
 * Under the tests (PEER_FREEZE_HANDOFFS=1, set in the ava configuration) a handed-off
 * document is frozen, so a change to one throws where it is made; freezing costs a tenth
 * of a turn, too much to pay in production for a rule the tests hold the runtime to.
 */
const FREEZE_HANDOFFS = process.env.PEER_FREEZE_HANDOFFS === '1';

export function handedOff<T>(doc: T): T {
  return FREEZE_HANDOFFS ? deepFreeze(doc) : doc;
}

export function first<T>(items: Iterable<T>): T | undefined {
  for (const item of items) return item;
  return undefined;
}
