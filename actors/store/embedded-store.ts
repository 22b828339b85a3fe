/**
 * The in-process store: collections live in memory and every filter, projection and
 * update operator is evaluated by mingo, so callers see MongoDB semantics without a
 * server. Documents are deep-copied on the way in and out; nothing a caller
 * holds aliases stored state.
 *
 * `new EmbeddedStore()` lives in memory only (tests, benchmarks' baselines).
 * `EmbeddedStore.open({ dataDir })` is the embedded store on disk (disk/disk-store.ts:
 * LMDB, the same query parts and the same contract suite).
 */
import { update as applyUpdate } from 'mingo/updater';
import { DuplicateKeyError } from '../errors.js';
import { deepCopy } from './deep-copy.js';
import { DiskStore, type DiskStoreOptions } from './disk/disk-store.js';
import { intersection, union, type Candidates } from './embedded/candidates.js';
import { bySeq, type Entry } from './embedded/entry.js';
import { numberRange } from './embedded/number-range.js';
import { OrderedIndex, type Span } from './embedded/ordered-index.js';
import { PostingMap } from './embedded/posting-map.js';
import { isPlainObject, type Doc } from './embedded/paths.js';
import {
  allValues,
  compileFilter,
  describeKey,
  equalityKeys,
  equalityValues,
  first,
  handedOff,
  indexedValue,
  page,
  postingKey,
  project,
  sameElements,
  toModifier,
  uniqueKeys,
  type UniqueIndex,
} from './embedded/query-parts.js';
import { sortDocuments } from './embedded/sort-order.js';
import { pinnedFields, pinnedPrefix, planSortedScan, sortedMatches, type SortedScan } from './embedded/sorted-scan.js';
import type {
  Collection,
  CollectionSpec,
  CountOptions,
  Filter,
  FindOptions,
  IndexSpec,
  SortSpec,
  Store,
  StoreStatus,
  StoredDocument,
  UpdateSpec,
  WriteOptions,
} from './store.js';

const NO_KEYS: ReadonlySet<string> = new Set();
/** The most values of an index's first field a skip scan seeks through (Table#skipScan). */
const SKIP_SCAN_VALUES = 256;
const NO_IDS: ReadonlySet<string> = new Set();

export class EmbeddedStore implements Store {
  readonly adapter = 'embedded' as const;
  readonly #tables = new Map<string, Table>();
  #closed = false;

  /**
   * The embedded store on disk over `dataDir`: locks the folder (refusing when another
   * live process holds it), migrates a journal store's files, and opens LMDB.
   */
  static open(options: DiskStoreOptions): Promise<DiskStore> {
    return DiskStore.open(options);
  }

  async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
    this.#assertOpen();
    const table = this.#table(spec.name);
    for (const index of spec.indexes) table.declare(index);
    return new EmbeddedCollection<T>(table, () => this.#assertOpen());
  }

  async status(): Promise<StoreStatus> {
    return { connected: !this.#closed, responseTimeMs: 0 };
  }

  async close(): Promise<void> {
    this.#closed = true;
  }

  #table(name: string): Table {
    let table = this.#tables.get(name);
    if (!table) {
      table = new Table(name);
      this.#tables.set(name, table);
    }
    return table;
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the embedded store is closed');
  }
}

/**
 * The typed face of a table. Every method is async and does its work without
 * awaiting, so each call is atomic with respect to every other call.
 */
class EmbeddedCollection<T extends StoredDocument> implements Collection<T> {
  readonly #table: Table;
  readonly #assertOpen: () => void;

  constructor(table: Table, assertOpen: () => void) {
    this.#table = table;
    this.#assertOpen = assertOpen;
  }

  get name(): string {
    return this.#table.name;
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    this.#assertOpen();
    const [doc] = this.#table.select(filter, { ...options, limit: 1 });
    return doc ? this.#out(doc) : null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    this.#assertOpen();
    return this.#table.select(filter, options).map((doc) => this.#out(doc));
  }

  async count(filter: Filter, options: CountOptions = {}): Promise<number> {
    this.#assertOpen();
    return this.#table.count(filter, options.limit ? Math.abs(options.limit) : Infinity);
  }

  async insertOne(doc: T, options: WriteOptions = {}): Promise<void> {
    this.#assertOpen();
    const copy = options.handOff ? handedOff(doc) : deepCopy(doc);
    this.#table.insert(copy);
  }

  async replaceOne(filter: Filter, doc: T, options: WriteOptions = {}): Promise<boolean> {
    this.#assertOpen();
    if (Object.keys(doc).some((key) => key.startsWith('$'))) throw new Error('a replacement document cannot hold update operators');
    const entry = first(this.#table.matches(filter));
    if (!entry) return false;
    const copy = options.handOff ? handedOff(doc) : deepCopy(doc);
    this.#table.write(entry, copy);
    return true;
  }

  async updateOne(filter: Filter, update: UpdateSpec): Promise<boolean> {
    this.#assertOpen();
    const operators = Object.keys(update);
    if (operators.length === 0 || !operators.every((key) => key.startsWith('$'))) throw new Error('an update document needs update operators');
    const entry = first(this.#table.matches(filter));
    if (!entry) return false;
    const next = deepCopy(entry.doc);
    // The filter is passed as the condition so positional paths (`items.$.qty`) resolve.
    applyUpdate(next, toModifier(update), undefined, filter, { cloneMode: 'deep' });
    this.#table.write(entry, next);
    return true;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    this.#assertOpen();
    const entry = first(this.#table.matches(filter));
    if (!entry) return false;
    this.#table.remove(entry);
    return true;
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.#assertOpen();
    const doomed = [...this.#table.matches(filter)];
    for (const entry of doomed) this.#table.remove(entry);
    return doomed.length;
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
    if (!spec.partialFilterExpression && !spec.multikey) this.#addOrdered(spec.key);
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
