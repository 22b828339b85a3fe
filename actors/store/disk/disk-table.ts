/**
 * One collection on disk: its documents and every index kept in LMDB, so the heap holds
 * neither. The query parts (what a condition pins, which keys a document holds, the
 * filter test) are the in-memory tables' own (embedded/query-parts.ts); what differs is
 * where the postings and orders live. Each write is one LMDB transaction covering the
 * document and all of its index rows, so a crash keeps all of a write or none of it.
 */
import { createHash } from 'node:crypto';
import type { Database, RootDatabase } from 'lmdb';
import { DuplicateKeyError } from '../../errors.js';
import { numberRange, type NumberRange } from '../embedded/number-range.js';
import { isPlainObject, type Doc } from '../embedded/paths.js';
import {
  allValues,
  compileFilter,
  describeKey,
  equalityKeys,
  equalityValues,
  indexedValue,
  page,
  postingKey,
  project,
  sameElements,
  uniqueKeys,
} from '../embedded/query-parts.js';
import { sortDocuments } from '../embedded/sort-order.js';
import { pinnedFields, pinnedPrefix, sortFollowing } from '../embedded/sorted-scan.js';
import type { Filter, FindOptions, IndexSpec, SortSpec, StoredDocument } from '../store.js';
import { type DocumentCodec, documentCodec } from './document-codec.js';
import { AFTER_PREFIX, fieldBytes, rowKey } from './index-key.js';
import type { WriteBatch } from './write-batch.js';
import { touchKey } from './touch-key.js';

/**
 * How far the planner counts a posting list: LMDB counts duplicates by walking them, so
 * a count past this would cost more than it decides (past it, a list is simply large).
 */
const PLAN_COUNT_LIMIT = 10_000;
/** LMDB's largest key is 1,978 bytes; longer posting and unique keys are filed under their hash. */
const LONGEST_KEY = 1_000;
/** The most values of an index's first field a skip scan seeks through. */
const SKIP_SCAN_VALUES = 256;

interface UniqueOnDisk {
  readonly name: string;
  readonly fields: readonly string[];
  readonly partial: ((doc: Doc) => boolean) | null;
  /** Whether the partial filter reads only the index's own fields, so pinned values alone say whether a document is in it. */
  readonly partialOnOwnFields: boolean;
  readonly db: Database<string, string>;
}

interface OrderedOnDisk {
  readonly fields: readonly string[];
  readonly directions: readonly (1 | -1)[];
  /** Key bytes -> `_id`. */
  readonly db: Database<string, Buffer>;
  /** Ids of documents with a value the order cannot place (an array, a subdocument, NaN, a key too long): while any, the index answers nothing. */
  readonly irregular: Database<string, string>;
}

/** Ids an index says a filter can match; `size` bounds how many `ids` yields. */
interface Candidates {
  readonly size: number;
  ids(): Iterable<string>;
}

interface SortedScan {
  readonly index: OrderedOnDisk;
  readonly start: Buffer;
  readonly end: Buffer;
  readonly size: number;
  readonly reverse: boolean;
  /** The sort fields the index gives in order (those tied on them are sorted by the rest). */
  readonly followed: readonly [string, 1 | -1][];
  readonly tieBreak: SortSpec;
}

/** The LMDB database holding a collection's documents. */
export function documentsName(collection: string): string {
  return `d:${collection}`;
}

/** LMDB's sync of the whole environment to disk (mdb_env_sync), which lmdb-js's types leave out. */
export function syncToDisk(root: RootDatabase): Promise<void> {
  const env = root as unknown as { sync(callback: (error?: Error) => void): void };
  return new Promise<void>((done, fail) => env.sync((error) => (error ? fail(error) : done())));
}

export class DiskTable {
  readonly #root: RootDatabase;
  readonly #meta: Database<string, string>;
  readonly #batch: WriteBatch;
  readonly #docs: Database<string, string>;
  readonly #codec: DocumentCodec = documentCodec;
  readonly #unique: UniqueOnDisk[] = [];
  /** Leading field of each declared index -> its postings (value key -> ids, LMDB duplicates). */
  readonly #equality = new Map<string, Database<string, string>>();
  readonly #ordered = new Map<string, OrderedOnDisk>();
  readonly #declared = new Map<string, string>();

  constructor(
    root: RootDatabase,
    meta: Database<string, string>,
    batch: WriteBatch,
    readonly name: string,
  ) {
    this.#root = root;
    this.#meta = meta;
    this.#batch = batch;
    this.#docs = root.openDB<string, string>({ name: documentsName(name), encoding: 'string' });
  }

  get size(): number {
    return entries(this.#docs);
  }

  /**
   * Declares an index. One already on disk with the same definition is ready at once
   * (a restart builds nothing); a new one is built from the documents in one transaction.
   */
  declare(spec: IndexSpec): void {
    const fields = Object.keys(spec.key);
    const leading = fields[0];
    if (leading === undefined) throw new Error(`an index on ${this.name} needs at least one field`);
    const name = spec.name ?? fields.map((field) => `${field}_${spec.key[field]}`).join('_');
    const signature = JSON.stringify([spec.key, spec.unique ?? false, spec.partialFilterExpression ?? null]);
    const existing = this.#declared.get(name);
    if (existing !== undefined) {
      if (existing !== signature) throw new Error(`index ${name} on ${this.name} is already declared differently`);
      return;
    }
    const stored = this.#meta.get(`index:${this.name}:${name}`);
    if (stored !== undefined && stored !== signature) throw new Error(`index ${name} on ${this.name} is already declared differently`);
    const build: Array<() => void> = [];
    if (spec.unique) {
      const index: UniqueOnDisk = {
        name,
        fields,
        partial: spec.partialFilterExpression ? compileFilter(spec.partialFilterExpression) : null,
        partialOnOwnFields: Object.keys(spec.partialFilterExpression ?? {}).every((field) => fields.includes(field)),
        db: this.#root.openDB<string, string>({ name: `u:${this.name}:${name}`, encoding: 'string' }),
      };
      if (stored === undefined) build.push(() => this.#buildUnique(index));
      this.#unique.push(index);
    }
    if (leading !== '_id' && !this.#equality.has(leading)) {
      const db = this.#root.openDB<string, string>({ name: `e:${this.name}:${leading}`, encoding: 'ordered-binary', dupSort: true });
      const built = this.#meta.get(`postings:${this.name}:${leading}`) !== undefined;
      if (!built) build.push(() => this.#buildPostings(leading, db));
      this.#equality.set(leading, db);
    }
    if (!spec.partialFilterExpression && !spec.multikey) {
      const pattern = JSON.stringify(spec.key);
      if (!this.#ordered.has(pattern)) {
        const index: OrderedOnDisk = {
          fields,
          directions: fields.map((field) => spec.key[field]!),
          db: this.#root.openDB<string, Buffer>({ name: `o:${this.name}:${pattern}`, keyEncoding: 'binary', encoding: 'string' }),
          irregular: this.#root.openDB<string, string>({ name: `x:${this.name}:${pattern}`, encoding: 'string' }),
        };
        if (this.#meta.get(`ordered:${this.name}:${pattern}`) === undefined) build.push(() => this.#buildOrdered(pattern, index));
        this.#ordered.set(pattern, index);
      }
    }
    if (build.length > 0 || stored === undefined) {
      this.#batch.run(() => {
        for (const step of build) step();
        this.#meta.putSync(`index:${this.name}:${name}`, signature);
      }, []);
    }
    this.#declared.set(name, signature);
  }

  /** The stored document, decoded afresh (nothing the caller holds aliases anything kept). */
  get(id: string): Doc | undefined {
    const text = this.#docs.get(id);
    return text === undefined ? undefined : this.#codec.decode(text);
  }

  has(id: string): boolean {
    return this.#docs.doesExist(id);
  }

  /** Matching documents in `_id` order, found lazily so the first match ends a `findOne`. */
  *matches(filter: Filter): Generator<Doc> {
    const test = compileFilter(filter);
    for (const doc of this.#candidateDocs(filter)) if (test(doc)) yield doc;
  }

  select(filter: Filter, options: FindOptions): Doc[] {
    const skip = options.skip ?? 0;
    // As with MongoDB, a limit of 0 means none and a negative limit is its absolute value.
    const limit = options.limit ? Math.abs(options.limit) : Infinity;
    const sort = options.sort && Object.keys(options.sort).length > 0 ? options.sort : undefined;
    let docs: Doc[];
    if (!sort) {
      docs = page(this.matches(filter), skip, limit);
    } else {
      const scan = this.#sortedScan(filter, sort);
      docs = scan
        ? page(this.#sortedMatches(scan, compileFilter(filter)), skip, limit)
        : sortDocuments(Array.from(this.matches(filter)), sort).slice(skip, skip + limit);
    }
    return project(docs, options.projection);
  }

  /** Counts in whatever order the candidates come (no sort of them all first), so a capped count reads no further than its cap. */
  count(filter: Filter, limit: number): number {
    if (Object.keys(filter).length === 0) return Math.min(limit, this.size);
    const exact = this.#exactSpan(filter);
    if (exact) return Math.min(limit, exact.index.db.getCount({ start: exact.start, end: exact.end }));
    const test = compileFilter(filter);
    let count = 0;
    for (const doc of this.#candidateDocs(filter, false)) if (test(doc) && ++count >= limit) break;
    return count;
  }

  /** Throws DuplicateKeyError (changing nothing) when `_id` or a unique key is taken. */
  insert(doc: StoredDocument): void {
    if (typeof doc._id !== 'string') throw new TypeError(`documents in ${this.name} need a string _id`);
    if (this.#docs.doesExist(doc._id)) throw new DuplicateKeyError(this.name, describeKey('_id_', { _id: doc._id }));
    this.#assertUnique(doc);
    const text = this.#codec.encode(doc);
    this.#batch.run(() => {
      this.#docs.putSync(doc._id, text);
      this.#reindex(doc._id, undefined, doc);
    }, [touchKey(this.name, doc._id)]);
  }

  /** Replaces `before` (the stored document) with `next`, or throws and changes nothing. */
  write(before: Doc, next: StoredDocument): void {
    if (next._id !== before._id) throw new Error(`_id is immutable: cannot change ${String(before._id)} to ${String(next._id)}`);
    this.#assertUnique(next);
    const text = this.#codec.encode(next);
    this.#batch.run(() => {
      this.#docs.putSync(next._id, text);
      this.#reindex(next._id, before, next);
    }, [touchKey(this.name, next._id)]);
  }

  /** Removes every one of `docs` in one transaction: a crash keeps all of the deletes or none. */
  remove(docs: readonly Doc[]): void {
    this.#batch.run(
      () => {
        for (const doc of docs) {
          const id = doc._id as string;
          this.#docs.removeSync(id);
          this.#reindex(id, doc, undefined);
        }
      },
      docs.map((doc) => touchKey(this.name, doc._id as string)),
    );
  }

  #assertUnique(doc: StoredDocument): void {
    for (const index of this.#unique) {
      for (const { key, value } of uniqueKeys(index, doc)) {
        const owner = index.db.get(diskKey(key));
        if (owner !== undefined && owner !== doc._id) throw new DuplicateKeyError(this.name, describeKey(index.name, value));
      }
    }
  }

  /** Moves the document's rows in every index from the keys of `before` to those of `after`; rows that stay put are not touched. */
  #reindex(id: string, before: Doc | undefined, after: Doc | undefined): void {
    for (const index of this.#unique) {
      const old = before ? uniqueKeys(index, before as StoredDocument).map(({ key }) => diskKey(key)) : [];
      const next = after ? uniqueKeys(index, after as StoredDocument).map(({ key }) => diskKey(key)) : [];
      for (const key of old) if (!next.includes(key) && index.db.get(key) === id) index.db.removeSync(key);
      for (const key of next) if (!old.includes(key)) index.db.putSync(key, id);
    }
    for (const [path, db] of this.#equality) {
      const oldValue = before && indexedValue(before, path);
      const nextValue = after && indexedValue(after, path);
      if (before && after && sameElements(oldValue, nextValue)) continue;
      const old = before ? equalityKeys(oldValue) : NO_KEYS;
      const next = after ? equalityKeys(nextValue) : NO_KEYS;
      for (const key of old) if (!next.has(key)) db.removeSync(diskKey(key), id);
      for (const key of next) if (!old.has(key)) db.putSync(diskKey(key), id);
    }
    for (const index of this.#ordered.values()) {
      const old = before ? orderedKey(index, before, id) : undefined;
      const next = after ? orderedKey(index, after, id) : undefined;
      if (old && next && old !== IRREGULAR && next !== IRREGULAR && old.equals(next)) continue;
      if (old === IRREGULAR) index.irregular.removeSync(id);
      else if (old) index.db.removeSync(old);
      if (next === IRREGULAR) index.irregular.putSync(id, '');
      else if (next) index.db.putSync(next, id);
    }
  }

  #buildUnique(index: UniqueOnDisk): void {
    for (const { key: id, value } of this.#docs.getRange()) {
      const doc = this.#codec.decode(value) as StoredDocument;
      for (const { key, value: keyValue } of uniqueKeys(index, doc)) {
        const owner = index.db.get(diskKey(key));
        if (owner !== undefined && owner !== id) throw new DuplicateKeyError(this.name, describeKey(index.name, keyValue));
        index.db.putSync(diskKey(key), id);
      }
    }
  }

  #buildPostings(path: string, db: Database<string, string>): void {
    for (const { key: id, value } of this.#docs.getRange()) {
      for (const key of equalityKeys(indexedValue(this.#codec.decode(value), path))) db.putSync(diskKey(key), id);
    }
    this.#meta.putSync(`postings:${this.name}:${path}`, '1');
  }

  #buildOrdered(pattern: string, index: OrderedOnDisk): void {
    for (const { key: id, value } of this.#docs.getRange()) {
      const key = orderedKey(index, this.#codec.decode(value), id);
      if (key === IRREGULAR) index.irregular.putSync(id, '');
      else index.db.putSync(key, id);
    }
    this.#meta.putSync(`ordered:${this.name}:${pattern}`, '1');
  }

  /** The candidates' documents, in `_id` order unless the caller needs none. */
  *#candidateDocs(filter: Filter, inIdOrder = true): Generator<Doc> {
    const narrowest = this.#narrowest(filter);
    if (!narrowest) {
      for (const { value } of this.#docs.getRange()) yield this.#codec.decode(value);
      return;
    }
    const ids = narrowest.size <= 1 ? narrowest.ids() : inIdOrder ? Array.from(new Set(narrowest.ids())).sort() : distinct(narrowest.ids());
    for (const id of ids) {
      const doc = this.get(id);
      if (doc) yield doc;
    }
  }

  /**
   * The smallest candidate set an index allows: an equality, `$in` or `$all` on `_id`
   * or a leading field, an `$or` whose every branch is narrowed, or the span of an
   * ordered index whose leading fields are pinned, narrowed by a numeric range on the
   * field after them (or on the second field under each value of a free first one).
   */
  #narrowest(filter: Filter): Candidates | undefined {
    let best: Candidates | undefined;
    const consider = (candidates: Candidates | undefined) => {
      if (candidates && (!best || candidates.size < best.size)) best = candidates;
    };
    for (const [path, condition] of Object.entries(filter)) {
      if (path === '$or') {
        consider(this.#anyOf(condition));
        continue;
      }
      const values = equalityValues(condition);
      if (values) consider(this.#lookup(path, values));
      const required = allValues(condition);
      if (required) consider(this.#allOf(path, required));
    }
    if (best && best.size <= 1) return best;
    const pinned = pinnedFields(filter);
    for (const index of this.#unique) {
      consider(this.#uniqueLookup(index, pinned));
      if (best && best.size <= 1) return best;
    }
    for (const index of this.#ordered.values()) {
      if (!this.#usable(index)) continue;
      const prefix = pinnedPrefix(index, pinned);
      const next = index.fields[prefix.length];
      const range = next === undefined ? null : numberRange(filter[next]);
      if (range || prefix.length > 0) consider(this.#spanCandidates(index, spanOf(index, prefix, range), prefix));
      else consider(this.#skipScan(index, filter));
    }
    return best;
  }

  /** The span holding exactly the matches, when every condition pins a leading field of one usable ordered index: counted without reading a document. */
  #exactSpan(filter: Filter): { index: OrderedOnDisk; start: Buffer; end: Buffer } | undefined {
    const pinned = pinnedFields(filter);
    if (pinned.size !== Object.keys(filter).length) return undefined;
    for (const index of this.#ordered.values()) {
      const prefix = pinnedPrefix(index, pinned);
      if (prefix.length === pinned.size && this.#usable(index)) return { index, ...spanOf(index, prefix, null) };
    }
    return undefined;
  }

  /**
   * The one document a unique index can hold for values the filter pins on all of its
   * fields (a create's idempotency key); undefined when a field is not pinned or the
   * pinned values fall outside a partial index (then documents outside it may match).
   */
  #uniqueLookup(index: UniqueOnDisk, pinned: ReadonlyMap<string, unknown>): Candidates | undefined {
    if (!index.partialOnOwnFields || !index.fields.every((field) => pinned.has(field) && pinned.get(field) !== null)) return undefined;
    const probe: Doc = {};
    for (const field of index.fields) setPath(probe, field, pinned.get(field));
    if (index.partial && !index.partial(probe)) return undefined;
    const [key] = uniqueKeys(index, probe as StoredDocument);
    const owner = key && index.db.get(diskKey(key.key));
    const ids = owner ? [owner] : [];
    return { size: ids.length, ids: () => ids };
  }

  #usable(index: OrderedOnDisk): boolean {
    return entries(index.irregular) === 0;
  }

  /** A span's ids; its size is bounded by the postings of its pinned leading value (free to read), else by the table. */
  #spanCandidates(index: OrderedOnDisk, span: { start: Buffer; end: Buffer }, prefix: readonly unknown[]): Candidates {
    const postings = prefix.length > 0 ? this.#equality.get(index.fields[0]!) : undefined;
    const size = postings ? postingCount(postings, diskKey(postingKey(prefix[0]))) : this.size;
    return { size, ids: () => index.db.getRange({ start: span.start, end: span.end }).map(({ value }) => value) };
  }

  /** With the first field free and a range on the second (the timer pass: `shard`, then `nextTimerAt`), a span per value of the first. */
  #skipScan(index: OrderedOnDisk, filter: Filter): Candidates | undefined {
    const second = index.fields[1];
    const range = second === undefined ? null : numberRange(filter[second]);
    const postings = this.#equality.get(index.fields[0]!);
    if (!range || !postings) return undefined;
    const leading = Array.from(postings.getKeys({ limit: SKIP_SCAN_VALUES + 1 }));
    if (leading.length > SKIP_SCAN_VALUES) return undefined;
    const firstValues = leading.map((key) => valueOfPostingKey(key));
    if (firstValues.some((value) => value === UNKNOWN)) return undefined;
    const spans = firstValues.map((value) => spanOf(index, [value], range));
    return {
      size: this.size,
      *ids() {
        for (const span of spans) for (const { value } of index.db.getRange({ start: span.start, end: span.end })) yield value;
      },
    };
  }

  #lookup(path: string, values: unknown[]): Candidates | undefined {
    if (path === '_id') {
      const ids = values.filter((value): value is string => typeof value === 'string' && this.#docs.doesExist(value));
      return { size: ids.length, ids: () => ids };
    }
    const db = this.#equality.get(path);
    if (!db) return undefined;
    const keys = values.map((value) => diskKey(postingKey(value)));
    return {
      size: keys.reduce((size, key) => size + postingCount(db, key), 0),
      *ids() {
        for (const key of keys) yield* db.getValues(key);
      },
    };
  }

  /** Ids holding every one of `values` at `path`: the smallest posting walked, the others probed. */
  #allOf(path: string, values: unknown[]): Candidates | undefined {
    const db = this.#equality.get(path);
    if (!db) return undefined;
    const keys = values.map((value) => diskKey(postingKey(value))).map((key) => ({ key, size: postingCount(db, key) }));
    keys.sort((a, b) => a.size - b.size);
    const [smallest, ...others] = keys;
    return {
      size: smallest!.size,
      *ids() {
        for (const id of db.getValues(smallest!.key)) if (others.every(({ key }) => db.doesExist(key, id))) yield id;
      },
    };
  }

  #anyOf(branches: unknown): Candidates | undefined {
    if (!Array.isArray(branches) || branches.length === 0) return undefined;
    const parts: Candidates[] = [];
    for (const branch of branches) {
      const candidates = isPlainObject(branch) ? this.#narrowest(branch) : undefined;
      if (!candidates) return undefined;
      parts.push(candidates);
    }
    return {
      size: parts.reduce((size, part) => size + part.size, 0),
      *ids() {
        for (const part of parts) yield* part.ids();
      },
    };
  }

  /**
   * A walk of an ordered index that gives `sort`'s order, unless the filter narrows the
   * candidates further another way: then sorting those is cheaper.
   */
  #sortedScan(filter: Filter, sort: SortSpec): SortedScan | null {
    const pinned = pinnedFields(filter);
    let best: SortedScan | null = null;
    for (const index of this.#ordered.values()) {
      if (!this.#usable(index)) continue;
      const scan = this.#planFor(index, pinned, sort, filter);
      if (scan && (!best || scan.size < best.size)) best = scan;
    }
    if (!best) return null;
    const narrowest = this.#narrowest(filter);
    return !narrowest || best.size <= narrowest.size ? best : null;
  }

  #planFor(index: OrderedOnDisk, pinned: ReadonlyMap<string, unknown>, sort: SortSpec, filter: Filter): SortedScan | null {
    const following = sortFollowing(index, pinned, sort);
    if (!following) return null;
    const { prefix, followed, reverse, tieBreak } = following;
    const span = spanOf(index, prefix, numberRange(filter[index.fields[prefix.length]!]));
    return { index, ...span, size: this.#spanCandidates(index, span, prefix).size, reverse, followed, tieBreak };
  }

  /**
   * The span's documents that pass `test`, in the order a full sort gives: the span is in
   * order on the followed fields; each run tied on them is put in `_id` order, then by
   * the rest of the sort, before it is yielded.
   */
  *#sortedMatches(scan: SortedScan, test: (doc: Doc) => boolean): Generator<Doc> {
    const { index, start, end, reverse } = scan;
    const range = reverse ? index.db.getRange({ start: end, end: start, reverse: true }) : index.db.getRange({ start, end });
    let run: Doc[] = [];
    let previous: string | undefined;
    for (const { value: id } of range) {
      const doc = this.get(id);
      if (!doc) continue;
      const tie = tieKey(doc, scan.followed);
      if (previous !== undefined && tie !== previous) {
        yield* orderTies(run, scan.tieBreak);
        run = [];
      }
      previous = tie;
      if (test(doc)) run.push(doc);
    }
    yield* orderTies(run, scan.tieBreak);
  }
}

const NO_KEYS: ReadonlySet<string> = new Set();

/** Each id once, as they come (an `$or`'s branches may both hold a document). */
function* distinct(ids: Iterable<string>): Generator<string> {
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    yield id;
  }
}
const IRREGULAR = Symbol('irregular');
const UNKNOWN = Symbol('unknown');

function postingCount(db: Database<string, string>, key: string): number {
  return db.getValuesCount(key, { limit: PLAN_COUNT_LIMIT });
}

/** How many entries a database holds, from LMDB's own count (no walk). */
function entries(db: Database<unknown, string>): number {
  return (db.getStats() as { entryCount: number }).entryCount;
}

function diskKey(key: string): string {
  return Buffer.byteLength(key) <= LONGEST_KEY ? key : `\u0001${createHash('sha256').update(key).digest('base64')}`;
}

/** The document's row key in the index, IRREGULAR when a value has no single place in its order. */
function orderedKey(index: OrderedOnDisk, doc: Doc, id: string): Buffer | typeof IRREGULAR {
  const parts: Buffer[] = [];
  for (let i = 0; i < index.fields.length; i++) {
    const value = keyAt(doc, index.fields[i]!);
    const bytes = value === IRREGULAR ? null : fieldBytes(value, index.directions[i]!);
    if (!bytes) return IRREGULAR;
    parts.push(bytes);
  }
  const key = rowKey(parts, id);
  return key.length > LONGEST_KEY ? IRREGULAR : key;
}

/** A path's value as the order sees it (missing is null), walking plain objects only: anything else on the way is irregular. */
function keyAt(doc: Doc, path: string): unknown {
  let value: unknown = doc;
  for (const part of path.split('.')) {
    if (value === null || value === undefined) return null;
    if (!isPlainObject(value)) return IRREGULAR;
    value = value[part];
  }
  return value ?? null;
}

function setPath(doc: Doc, path: string, value: unknown): void {
  const parts = path.split('.');
  let at = doc;
  for (const part of parts.slice(0, -1)) {
    if (!isPlainObject(at[part])) at[part] = {};
    at = at[part] as Doc;
  }
  at[parts.at(-1)!] = value;
}

/** The key range of rows whose leading fields equal `prefix` and whose next field lies in `range` (when given). */
function spanOf(index: OrderedOnDisk, prefix: readonly unknown[], range: NumberRange | null): { start: Buffer; end: Buffer } {
  const head = Buffer.concat(prefix.map((value, i) => fieldBytes(value, index.directions[i]!)!));
  if (!range) return { start: head, end: Buffer.concat([head, Buffer.from([AFTER_PREFIX])]) };
  const direction = index.directions[prefix.length]!;
  // In index order the run starts at the bound that comes first: the lower one ascending, the upper one descending.
  const [first, last] = direction === 1 ? [range.lower, range.upper] : [range.upper, range.lower];
  const firstBytes = Buffer.concat([head, fieldBytes(first.value, direction)!]);
  const lastBytes = Buffer.concat([head, fieldBytes(last.value, direction)!]);
  return {
    start: first.inclusive ? firstBytes : Buffer.concat([firstBytes, Buffer.from([AFTER_PREFIX])]),
    end: last.inclusive ? Buffer.concat([lastBytes, Buffer.from([AFTER_PREFIX])]) : lastBytes,
  };
}

/** A posting key back to the value it files, for the values a skip scan seeks (strings and numbers); UNKNOWN otherwise. */
function valueOfPostingKey(key: string): unknown {
  if (!key.startsWith('\u0000')) return key;
  const tagged = key.slice(1);
  if (tagged === 'n') return null;
  if (tagged.startsWith('d')) return Number(tagged.slice(1));
  if (tagged === 't' || tagged === 'f') return tagged === 't';
  return UNKNOWN;
}

function tieKey(doc: Doc, followed: readonly [string, 1 | -1][]): string {
  return followed.map(([field, direction]) => fieldBytes(keyAt(doc, field), direction)?.toString('latin1') ?? '').join('\u0000');
}

function orderTies(run: Doc[], tieBreak: SortSpec): Doc[] {
  run.sort((a, b) => ((a._id as string) < (b._id as string) ? -1 : (a._id as string) > (b._id as string) ? 1 : 0));
  return run.length > 1 && Object.keys(tieBreak).length > 0 ? sortDocuments(run, tieBreak) : run;
}
