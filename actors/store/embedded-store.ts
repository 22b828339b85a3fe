/**
 * The in-process store: collections live in memory and every filter, projection and
 * update operator is evaluated by mingo, so callers see MongoDB semantics without a
 * server. Documents are deep-copied on the way in and out; nothing a caller
 * holds aliases stored state.
 *
 * `new EmbeddedStore()` lives in memory only (tests). `EmbeddedStore.open({ dataDir })`
 * is the same store over a journal on disk (durable/durable-log.ts): the tables stay
 * the only query engine, the journal only decides when an answer may be given.
 */
import { Query, find } from 'mingo';
import { update as applyUpdate, type Modifier } from 'mingo/updater';
import { resolve } from 'mingo/util';
import { DuplicateKeyError } from '../errors.js';
import { deepCopy } from './deep-copy.js';
import { deepFreeze } from './deep-freeze.js';
import { DurableLog, type DurableOptions } from './durable/durable-log.js';
import { deleteFrame, putFrame, type Change } from './durable/records.js';
import { intersection, union, type Candidates } from './embedded/candidates.js';
import { bySeq, type Entry } from './embedded/entry.js';
import { nativeFilter } from './embedded/native-filter.js';
import { numberRange } from './embedded/number-range.js';
import { OrderedIndex, type Span } from './embedded/ordered-index.js';
import { PostingMap } from './embedded/posting-map.js';
import { isPlainObject, valuesAt, type Doc } from './embedded/paths.js';
import { sortDocuments } from './embedded/sort-order.js';
import { pinnedFields, pinnedPrefix, planSortedScan, sortedMatches, type SortedScan } from './embedded/sorted-scan.js';
import type {
  Collection,
  CollectionSpec,
  CountOptions,
  Filter,
  FindOptions,
  IndexSpec,
  Projection,
  SortSpec,
  Store,
  StoreStatus,
  StoredDocument,
  UpdateSpec,
  WriteOptions,
} from './store.js';

interface UniqueIndex {
  readonly name: string;
  readonly fields: readonly string[];
  /** Whether a document belongs in a partial index; null for a full one. */
  readonly partial: ((doc: Doc) => boolean) | null;
  /** Index key -> `_id` of the document holding it. */
  readonly owners: Map<string, string>;
}

interface IndexKey {
  key: string;
  value: Doc;
}

/** MongoDB keys an empty array as `undefined`, which is distinct from null. */
const EMPTY_ARRAY_KEY = 'u';
const NO_KEYS: ReadonlySet<string> = new Set();
/** The most values of an index's first field a skip scan seeks through (Table#skipScan). */
const SKIP_SCAN_VALUES = 256;
const NO_IDS: ReadonlySet<string> = new Set();
/** Leads the posting key of every value but a string (postingKey). */
const OTHER_KEY = '\u0000';

export class EmbeddedStore implements Store {
  readonly adapter = 'embedded' as const;
  readonly #tables = new Map<string, Table>();
  #closed = false;
  #log: DurableLog | null = null;

  /**
   * The durable store over `dataDir`: locks the folder (refusing when another live
   * process holds it), loads it, and journals every write from then on.
   */
  static async open(options: DurableOptions): Promise<EmbeddedStore> {
    const store = new EmbeddedStore();
    store.#log = await DurableLog.open(options, {
      apply: (change) => store.#recover(change),
      capture: () => Array.from(store.#tables, ([name, table]) => [name, table.documents()]),
    });
    return store;
  }

  /** The data folder, or null in memory. */
  get dataDir(): string | null {
    return this.#log?.dataDir ?? null;
  }

  async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
    this.#assertOpen();
    const table = this.#table(spec.name);
    for (const index of spec.indexes) table.declare(index);
    return new EmbeddedCollection<T>(table, () => this.#assertOpen(), this.#log);
  }

  async status(): Promise<StoreStatus> {
    return { connected: !this.#closed && !this.#log?.failure, responseTimeMs: 0 };
  }

  /** Writes a snapshot and starts a new journal segment now (it also happens on its own as the journal grows); nothing in memory. */
  async compact(): Promise<void> {
    this.#assertOpen();
    await this.#log?.compact();
  }

  /** Waits for writes in flight to be durable, then releases the data folder. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#log?.close();
  }

  #table(name: string): Table {
    let table = this.#tables.get(name);
    if (!table) {
      table = new Table(name);
      this.#tables.set(name, table);
    }
    return table;
  }

  /** Replays a recovered change; no index is declared yet, so nothing is checked twice. */
  #recover(change: Change): void {
    const table = this.#table(change.collection);
    if ('put' in change) table.put(change.put);
    else for (const id of change.delete) table.removeId(id);
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the embedded store is closed');
    const failure = this.#log?.failure;
    if (failure) throw failure;
  }
}

/**
 * The typed face of a table. Every method is async and does its work without
 * awaiting, so each call is atomic with respect to every other call.
 */
class EmbeddedCollection<T extends StoredDocument> implements Collection<T> {
  readonly #table: Table;
  readonly #assertOpen: () => void;
  readonly #log: DurableLog | null;

  constructor(table: Table, assertOpen: () => void, log: DurableLog | null) {
    this.#table = table;
    this.#assertOpen = assertOpen;
    this.#log = log;
  }

  get name(): string {
    return this.#table.name;
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    this.#assertOpen();
    const [doc] = this.#table.select(filter, { ...options, limit: 1 });
    return this.#answer(doc ? this.#out(doc) : null);
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    this.#assertOpen();
    return this.#answer(this.#table.select(filter, options).map((doc) => this.#out(doc)));
  }

  async count(filter: Filter, options: CountOptions = {}): Promise<number> {
    this.#assertOpen();
    return this.#answer(this.#table.count(filter, options.limit ? Math.abs(options.limit) : Infinity));
  }

  async insertOne(doc: T, options: WriteOptions = {}): Promise<void> {
    this.#assertOpen();
    const copy = options.handOff ? handedOff(doc) : deepCopy(doc);
    await this.#commit(copy, () => this.#table.insert(copy));
  }

  async replaceOne(filter: Filter, doc: T, options: WriteOptions = {}): Promise<boolean> {
    this.#assertOpen();
    if (Object.keys(doc).some((key) => key.startsWith('$'))) throw new Error('a replacement document cannot hold update operators');
    const entry = first(this.#table.matches(filter));
    if (!entry) return this.#answer(false);
    const copy = options.handOff ? handedOff(doc) : deepCopy(doc);
    await this.#commit(copy, () => this.#table.write(entry, copy));
    return true;
  }

  async updateOne(filter: Filter, update: UpdateSpec): Promise<boolean> {
    this.#assertOpen();
    const operators = Object.keys(update);
    if (operators.length === 0 || !operators.every((key) => key.startsWith('$'))) throw new Error('an update document needs update operators');
    const entry = first(this.#table.matches(filter));
    if (!entry) return this.#answer(false);
    const next = deepCopy(entry.doc);
    // The filter is passed as the condition so positional paths (`items.$.qty`) resolve.
    applyUpdate(next, toModifier(update), undefined, filter, { cloneMode: 'deep' });
    await this.#commit(next, () => this.#table.write(entry, next));
    return true;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    this.#assertOpen();
    const entry = first(this.#table.matches(filter));
    if (!entry) return this.#answer(false);
    this.#table.remove(entry);
    if (this.#log) await this.#log.append(deleteFrame(this.name, [entry.doc._id]));
    return true;
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.#assertOpen();
    const doomed = [...this.#table.matches(filter)];
    if (doomed.length === 0) return this.#answer(0);
    for (const entry of doomed) this.#table.remove(entry);
    // One record, so a crash keeps all of the deletes or none.
    if (this.#log)
      await this.#log.append(
        deleteFrame(
          this.name,
          doomed.map((entry) => entry.doc._id),
        ),
      );
    return doomed.length;
  }

  /**
   * Applies in memory and queues the record in one synchronous step, so the journal
   * holds changes in the order memory took them. The record is encoded first: a value
   * the journal cannot hold then fails the call with nothing changed.
   */
  async #commit(next: StoredDocument, apply: () => void): Promise<void> {
    const record = this.#log && putFrame(this.name, next);
    try {
      apply();
    } catch (error) {
      // What it collided with may not be durable yet.
      await this.#log?.settled();
      throw error;
    }
    if (record) await this.#log!.append(record);
  }

  /** An answer drawn from memory (a miss counts) waits until what it saw is durable; nothing pending, nothing waited. */
  #answer<R>(value: R): Promise<R> {
    const pending = this.#log?.settled();
    return pending ? pending.then(() => value) : Promise.resolve(value);
  }

  /** The table holds whatever this collection was declared with, so its documents are `T`s. */
  #out(doc: Doc): T {
    return deepCopy(doc) as T;
  }
}

/** One collection's documents and indexes. Knows nothing of cloning or closing. */
class Table {
  readonly #entries = new Map<string, Entry>();
  readonly #declared = new Map<string, string>();
  readonly #unique: UniqueIndex[] = [];
  /** Leading field of each declared index -> value key -> ids, to narrow equality and `$in` filters. */
  readonly #equality = new Map<string, PostingMap>();
  /**
   * Key pattern (as JSON) of each declared index without a partial filter -> the index
   * in order. A partial index holds only some documents, so it cannot answer for all.
   */
  readonly #ordered = new Map<string, OrderedIndex>();
  #seq = 0;

  constructor(readonly name: string) {}

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
    if (spec.unique) this.#addUnique(name, fields, spec.partialFilterExpression);
    if (leading !== '_id' && !this.#equality.has(leading)) {
      const map = new PostingMap();
      this.#equality.set(leading, map);
      for (const { doc } of this.#entries.values()) for (const key of equalityKeys(indexedValue(doc, leading))) map.add(key, doc._id);
    }
    if (!spec.partialFilterExpression) this.#addOrdered(spec.key);
    this.#declared.set(name, signature);
  }

  /** Matching entries in natural order, found lazily so the first match ends a `findOne`. */
  *matches(filter: Filter): Generator<Entry> {
    const test = compileFilter(filter);
    for (const entry of this.#candidates(filter)) if (test(entry.doc)) yield entry;
  }

  select(filter: Filter, options: FindOptions): Doc[] {
    const skip = options.skip ?? 0;
    // As with MongoDB, a limit of 0 means none and a negative limit is its absolute value.
    const limit = options.limit ? Math.abs(options.limit) : Infinity;
    const sort = options.sort && Object.keys(options.sort).length > 0 ? options.sort : undefined;
    let docs: Doc[];
    if (!sort) {
      docs = page(docsOf(this.matches(filter)), skip, limit);
    } else {
      const scan = this.#sortedScan(filter, sort);
      docs = scan
        ? page(sortedMatches(scan, compileFilter(filter)), skip, limit)
        : sortDocuments(Array.from(docsOf(this.matches(filter))), sort).slice(skip, skip + limit);
    }
    return project(docs, options.projection);
  }

  count(filter: Filter, limit: number): number {
    if (Object.keys(filter).length === 0) return Math.min(limit, this.#entries.size);
    const exact = this.#exactSpan(filter);
    if (exact) return Math.min(limit, exact.size);
    const test = compileFilter(filter);
    let count = 0;
    for (const entry of this.#narrowest(filter)?.entries() ?? this.#entries.values()) if (test(entry.doc) && ++count >= limit) break;
    return count;
  }

  insert(doc: StoredDocument): void {
    if (typeof doc._id !== 'string') throw new TypeError(`documents in ${this.name} need a string _id`);
    if (this.#entries.has(doc._id)) throw new DuplicateKeyError(this.name, describeKey('_id_', { _id: doc._id }));
    this.#assertUnique(doc);
    const entry = { seq: this.#seq++, doc };
    this.#entries.set(doc._id, entry);
    this.#reindex(entry, undefined, doc);
  }

  /** Replaces an entry's document, or throws and changes nothing. */
  write(entry: Entry, next: StoredDocument): void {
    if (next._id !== entry.doc._id) throw new Error(`_id is immutable: cannot change ${entry.doc._id} to ${String(next._id)}`);
    this.#assertUnique(next);
    this.#reindex(entry, entry.doc, next);
    entry.doc = next;
  }

  remove(entry: Entry): void {
    this.#reindex(entry, entry.doc, undefined);
    this.#entries.delete(entry.doc._id);
  }

  /** Inserts or replaces by `_id`: recovery replays results, not calls. */
  put(doc: StoredDocument): void {
    const entry = this.#entries.get(doc._id);
    if (entry) this.write(entry, doc);
    else this.insert(doc);
  }

  removeId(id: string): void {
    const entry = this.#entries.get(id);
    if (entry) this.remove(entry);
  }

  /** The documents in natural order (the map keeps insertion order, which is seq order). */
  documents(): StoredDocument[] {
    return Array.from(this.#entries.values(), (entry) => entry.doc);
  }

  /**
   * A walk of an ordered index that gives `sort`'s order, unless the filter narrows
   * the candidates further some other way: then sorting those is cheaper.
   */
  #sortedScan(filter: Filter, sort: SortSpec): SortedScan | null {
    const scan = planSortedScan(this.#ordered.values(), pinnedFields(filter), sort, filter);
    if (!scan) return null;
    const narrowest = this.#narrowest(filter);
    return !narrowest || scan.span.size <= narrowest.size ? scan : null;
  }

  /** The span holding exactly the matches, when every condition pins a leading field of one ordered index. */
  #exactSpan(filter: Filter): Span | undefined {
    const pinned = pinnedFields(filter);
    if (pinned.size !== Object.keys(filter).length) return undefined;
    for (const index of this.#ordered.values()) {
      const prefix = index.usable ? pinnedPrefix(index, pinned) : [];
      if (prefix.length === pinned.size) return index.span(prefix);
    }
    return undefined;
  }

  /** The candidates in natural order. */
  #candidates(filter: Filter): Iterable<Entry> {
    const narrowest = this.#narrowest(filter);
    return narrowest ? Array.from(narrowest.entries()).sort(bySeq) : this.#entries.values();
  }

  /**
   * The smallest candidate set an index allows: an equality, `$in` or `$all` on `_id`
   * or an index's leading field, an `$or` whose every branch is narrowed so, or the
   * span of an ordered index whose leading fields are pinned, narrowed by a numeric
   * range on the field after them (or on the second field, under each value of a free
   * first one). Undefined when no index applies and every entry is a candidate.
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
    // A lookup by `_id` (every turn's reload) has its one candidate already: no span can do better.
    if (best && best.size <= 1) return best;
    const pinned = pinnedFields(filter);
    for (const index of this.#ordered.values()) {
      if (!index.usable) continue;
      const prefix = pinnedPrefix(index, pinned);
      const next = index.fields[prefix.length];
      const range = next === undefined ? null : numberRange(filter[next]);
      // The run in range lies inside the prefix's span, so it is the one to weigh.
      if (range) consider(spanCandidates(index.spanInRange(prefix, range)));
      else if (prefix.length > 0) consider(spanCandidates(index.span(prefix)));
      else consider(this.#skipScan(index, filter));
    }
    return best;
  }

  /**
   * With the index's first field free and a range on its second (the timer pass on a
   * node that owns every shard: `shard`, then `nextTimerAt`), the rows in range under
   * each value of the first field. Only where that field has few values: each is a seek.
   */
  #skipScan(index: OrderedIndex, filter: Filter): Candidates | undefined {
    const second = index.fields[1];
    const range = second === undefined ? null : numberRange(filter[second]);
    const values = this.#equality.get(index.fields[0]!);
    if (!range || !values || values.size > SKIP_SCAN_VALUES) return undefined;
    return union(Array.from(index.leadingKeys(), (key) => spanCandidates(index.spanInRange([key], range))));
  }

  /** Entries an equality or `$in` on `path` can match, by `_id` or a leading field's values; undefined when neither is indexed. */
  #lookup(path: string, values: unknown[]): Candidates | undefined {
    if (path === '_id') {
      const ids = new Set(values.filter((value): value is string => typeof value === 'string' && this.#entries.has(value)));
      return { size: ids.size, entries: () => this.#entriesOf(ids) };
    }
    const map = this.#equality.get(path);
    if (!map) return undefined;
    const sets: ReadonlySet<string>[] = [];
    for (const value of values) {
      const ids = map.get(postingKey(value));
      if (ids) sets.push(ids);
    }
    return {
      size: sets.reduce((size, ids) => size + ids.size, 0),
      // A document can hold several of the values, so more than one set is merged to visit it once.
      entries: () => this.#entriesOf(sets.length === 1 ? sets[0]! : new Set(sets.flatMap((ids) => [...ids]))),
    };
  }

  /**
   * Entries holding every one of `values` at `path`: the intersection of the leading
   * field's posting sets (a multikey index, one set per array element), walked from
   * the smallest. Undefined when `path` leads no index.
   */
  #allOf(path: string, values: unknown[]): Candidates | undefined {
    const map = this.#equality.get(path);
    if (!map) return undefined;
    return intersection(
      values.map((value) => map.get(postingKey(value)) ?? NO_IDS),
      (id) => this.#entries.get(id)!,
    );
  }

  /** The union of the branches' candidates, when an index narrows every branch of an `$or`. */
  #anyOf(branches: unknown): Candidates | undefined {
    if (!Array.isArray(branches) || branches.length === 0) return undefined;
    const parts: Candidates[] = [];
    for (const branch of branches) {
      const candidates = isPlainObject(branch) ? this.#narrowest(branch) : undefined;
      if (!candidates) return undefined;
      parts.push(candidates);
    }
    return union(parts);
  }

  *#entriesOf(ids: Iterable<string>): Generator<Entry> {
    for (const id of ids) yield this.#entries.get(id)!;
  }

  #addUnique(name: string, fields: readonly string[], partialFilter: Filter | undefined): void {
    const index: UniqueIndex = { name, fields, partial: partialFilter ? compileFilter(partialFilter) : null, owners: new Map() };
    for (const { doc } of this.#entries.values()) {
      for (const { key, value } of uniqueKeys(index, doc)) {
        if (index.owners.has(key)) throw new DuplicateKeyError(this.name, describeKey(name, value));
        index.owners.set(key, doc._id);
      }
    }
    this.#unique.push(index);
  }

  /** Two declared indexes on the same key pattern (say one unique, one named) share one order. */
  #addOrdered(key: Record<string, 1 | -1>): void {
    const pattern = JSON.stringify(key);
    if (this.#ordered.has(pattern)) return;
    const index = new OrderedIndex(key);
    for (const entry of this.#entries.values()) index.put(entry, entry.doc);
    this.#ordered.set(pattern, index);
  }

  #assertUnique(doc: StoredDocument): void {
    for (const index of this.#unique) {
      for (const { key, value } of uniqueKeys(index, doc)) {
        const owner = index.owners.get(key);
        if (owner !== undefined && owner !== doc._id) throw new DuplicateKeyError(this.name, describeKey(index.name, value));
      }
    }
  }

  /**
   * Moves the entry in every index from the keys of `before` to those of `after`. Keys
   * that stay put are left alone, as most writes (a turn) change no indexed field.
   */
  #reindex(entry: Entry, before: StoredDocument | undefined, after: StoredDocument | undefined): void {
    const id = entry.doc._id;
    for (const index of this.#unique) {
      if (before) for (const { key } of uniqueKeys(index, before)) if (index.owners.get(key) === id) index.owners.delete(key);
      if (after) for (const { key } of uniqueKeys(index, after)) index.owners.set(key, id);
    }
    for (const [path, map] of this.#equality) {
      const oldValue = before && indexedValue(before, path);
      const nextValue = after && indexedValue(after, path);
      // Encoding a value that stayed put (a turn's usual write) would cost more than the rest of the write for an array such as a search's grams.
      if (before && after && sameElements(oldValue, nextValue)) continue;
      const old = before ? equalityKeys(oldValue) : NO_KEYS;
      const next = after ? equalityKeys(nextValue) : NO_KEYS;
      for (const key of old) if (!next.has(key)) map.remove(key, id);
      for (const key of next) if (!old.has(key)) map.add(key, id);
    }
    for (const index of this.#ordered.values()) {
      if (after) index.put(entry, after);
      else index.delete(id);
    }
  }
}

function spanCandidates(span: Span): Candidates {
  return {
    size: span.size,
    *entries() {
      for (const row of span.rows(false)) yield row.entry;
    },
  };
}

function* docsOf(entries: Iterable<Entry>): Generator<Doc> {
  for (const entry of entries) yield entry.doc;
}

/** Items `skip` up to `skip + limit` of `items`, reading no further. */
function page<T>(items: Iterable<T>, skip: number, limit: number): T[] {
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
function compileFilter(filter: Filter): (doc: Doc) => boolean {
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
function equalityValues(condition: unknown): unknown[] | null {
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
function allValues(condition: unknown): unknown[] | null {
  if (!isPlainObject(condition) || !Array.isArray(condition.$all) || condition.$all.length === 0) return null;
  const values: unknown[] = condition.$all;
  const literal = (value: unknown) =>
    !(value instanceof RegExp) && !Array.isArray(value) && !(isPlainObject(value) && Object.keys(value).some((key) => key.startsWith('$')));
  return values.every(literal) ? values : null;
}

/** What mingo's evaluation of a condition on `path` reads in `doc`. */
function indexedValue(doc: Doc, path: string): unknown {
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
function equalityKeys(value: unknown): ReadonlySet<string> {
  const keys = new Set<string>();
  addKeys(value, keys);
  return keys;
}

/** Whether two resolved values are one value, or arrays of the very same elements in order: then their keys are the same. */
function sameElements(a: unknown, b: unknown): boolean {
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
function postingKey(value: unknown): string {
  return typeof value === 'string' && !value.startsWith(OTHER_KEY) ? value : `${OTHER_KEY}${encode(value)}`;
}

/** The keys a document holds in a unique index: one per combination of its fields' keys. */
function uniqueKeys(index: UniqueIndex, doc: StoredDocument): IndexKey[] {
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
function encode(value: unknown): string {
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

function describeKey(indexName: string, value: Doc): string {
  return `${indexName} ${JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))}`;
}

/** mingo types `$unset` values as '' only; MongoDB and mingo both ignore the value. */
function toModifier(update: UpdateSpec): Modifier<StoredDocument> {
  const { $unset, ...rest } = update;
  return $unset ? { ...rest, $unset: Object.fromEntries(Object.keys($unset).map((path) => [path, ''])) } : rest;
}

function project(docs: Doc[], projection: Projection | undefined): Doc[] {
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

function handedOff<T>(doc: T): T {
  return FREEZE_HANDOFFS ? deepFreeze(doc) : doc;
}

function first<T>(items: Iterable<T>): T | undefined {
  for (const item of items) return item;
  return undefined;
}
