/**
 * The embedded store on disk: documents and indexes in LMDB (through `lmdb`, whose
 * binaries ship in the npm package) under `DATA_DIR/store`, so the heap holds neither
 * and a restart reads nothing up front. Crash safety, space reuse and compaction are
 * LMDB's (copy-on-write pages, two meta pages). Queries are the in-memory tables'
 * (mingo filters, the same planner rules), held to the same contract suite.
 *
 * "Acknowledged means durable": the writes of a batch share one LMDB transaction that
 * every later call reads through (write-batch.ts); it is committed as the sync that
 * makes it durable starts (flush-group.ts), and only then are its writes acknowledged.
 * A read waits until every write it could have seen is on disk.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { update as applyUpdate } from 'mingo/updater';
import type { Logger } from 'pino';
import { DuplicateKeyError } from '../../errors.js';
import { deepCopy } from '../deep-copy.js';
import type { Doc } from '../embedded/paths.js';
import { first, handedOff, toModifier } from '../embedded/query-parts.js';
import type { Collection, CollectionSpec, CountOptions, Filter, FindOptions, Store, StoreStatus, StoredDocument, UpdateSpec, WriteOptions } from '../store.js';
import { DiskTable, syncToDisk } from './disk-table.js';
import { FlushGroup } from './flush-group.js';
import { touchKey } from './touch-key.js';
import { WriteBatch } from './write-batch.js';
import { lockFolder, type FolderLock } from './folder-lock.js';
import { migrateJournalFolder } from './legacy/migrate-journal-folder.js';

export interface DiskStoreOptions {
  dataDir: string;
  /** Told of a migration from the journal store. */
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** The LMDB environment's folder inside DATA_DIR. */
export const STORE_FOLDER = 'store';
/** Address space reserved for the map; the file grows only as pages are used. */
const MAP_SIZE = 2 ** 40;

export class DiskStore implements Store {
  readonly adapter = 'embedded' as const;
  readonly dataDir: string;
  readonly #root: RootDatabase;
  readonly #meta: Database<string, string>;
  readonly #lock: FolderLock;
  readonly #flush: FlushGroup;
  readonly #batch: WriteBatch;
  readonly #tables = new Map<string, DiskTable>();
  #closed = false;

  private constructor(dataDir: string, root: RootDatabase, lock: FolderLock) {
    this.dataDir = dataDir;
    this.#root = root;
    this.#lock = lock;
    this.#meta = root.openDB<string, string>({ name: 'meta', encoding: 'string' });
    this.#batch = new WriteBatch(root);
    // The batch is committed as its sync starts, so every write the sync covers is in it.
    this.#flush = new FlushGroup(() => this.#batch.commitAndSync(() => syncToDisk(root)));
  }

  /** Locks the folder (refusing when another live process holds it), migrates a journal store's files, and opens LMDB. */
  static async open(options: DiskStoreOptions): Promise<DiskStore> {
    const dir = resolve(options.dataDir);
    await mkdir(dir, { recursive: true });
    const lock = await lockFolder(dir);
    try {
      const openRoot = () => open({ path: join(dir, STORE_FOLDER), maxDbs: 4096, mapSize: MAP_SIZE, overlappingSync: false, noMemInit: true });
      await migrateJournalFolder(dir, openRoot, options.logger);
      return new DiskStore(dir, openRoot(), lock);
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
    this.#assertOpen();
    let table = this.#tables.get(spec.name);
    if (!table) {
      table = new DiskTable(this.#root, this.#meta, this.#batch, spec.name);
      this.#tables.set(spec.name, table);
    }
    // An index built here is in the open batch: the next sync makes it durable, and every query waits for that sync.
    for (const index of spec.indexes) table.declare(index);
    return new DiskCollection<T>(table, this.#flush, this.#batch, () => this.#assertOpen());
  }

  async status(): Promise<StoreStatus> {
    return { connected: !this.#closed && !this.#flush.failure, responseTimeMs: 0 };
  }

  /** Waits for writes in flight to be durable, then closes LMDB and releases the data folder. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#flush.settled()?.catch(() => undefined);
    await this.#batch.commitAndSync(async () => undefined).catch(() => undefined);
    await this.#root.close();
    await this.#lock.release();
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('the embedded store is closed');
    const failure = this.#flush.failure;
    if (failure) throw failure;
  }
}

/** The `_id` a filter looks up and nothing else (`{ _id: id }`), if it is one. */
function idLookup(filter: Filter): string | undefined {
  const keys = Object.keys(filter);
  return keys.length === 1 && keys[0] === '_id' && typeof filter._id === 'string' ? filter._id : undefined;
}

/** Every method does its work without awaiting before it commits, so each call is atomic with respect to every other. */
class DiskCollection<T extends StoredDocument> implements Collection<T> {
  readonly #table: DiskTable;
  readonly #flush: FlushGroup;
  readonly #batch: WriteBatch;
  readonly #assertOpen: () => void;

  constructor(table: DiskTable, flush: FlushGroup, batch: WriteBatch, assertOpen: () => void) {
    this.#table = table;
    this.#flush = flush;
    this.#batch = batch;
    this.#assertOpen = assertOpen;
  }

  get name(): string {
    return this.#table.name;
  }

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    this.#assertOpen();
    const [doc] = this.#table.select(filter, { ...options, limit: 1 });
    const id = idLookup(filter);
    // A lookup by `_id` (an actor's load) can only have seen writes to that document.
    if (id !== undefined && !this.#batch.unsynced(touchKey(this.name, id))) return (doc as T | undefined) ?? null;
    return this.#answer((doc as T | undefined) ?? null);
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    this.#assertOpen();
    return this.#answer(this.#table.select(filter, options) as T[]);
  }

  async count(filter: Filter, options: CountOptions = {}): Promise<number> {
    this.#assertOpen();
    return this.#answer(this.#table.count(filter, options.limit ? Math.abs(options.limit) : Infinity));
  }

  async insertOne(doc: T, options: WriteOptions = {}): Promise<void> {
    this.#assertOpen();
    await this.#commit(() => this.#table.insert(options.handOff ? handedOff(doc) : doc));
  }

  async replaceOne(filter: Filter, doc: T, options: WriteOptions = {}): Promise<boolean> {
    this.#assertOpen();
    if (Object.keys(doc).some((key) => key.startsWith('$'))) throw new Error('a replacement document cannot hold update operators');
    const before = first(this.#table.matches(filter));
    if (!before) return this.#answer(false);
    await this.#commit(() => this.#table.write(before, options.handOff ? handedOff(doc) : doc));
    return true;
  }

  async updateOne(filter: Filter, update: UpdateSpec): Promise<boolean> {
    this.#assertOpen();
    const operators = Object.keys(update);
    if (operators.length === 0 || !operators.every((key) => key.startsWith('$'))) throw new Error('an update document needs update operators');
    const before = first(this.#table.matches(filter));
    if (!before) return this.#answer(false);
    const next = deepCopy(before);
    // The filter is passed as the condition so positional paths (`items.$.qty`) resolve.
    applyUpdate(next, toModifier(update), undefined, filter, { cloneMode: 'deep' });
    await this.#commit(() => this.#table.write(before, next as StoredDocument));
    return true;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    this.#assertOpen();
    const doomed = first(this.#table.matches(filter));
    if (!doomed) return this.#answer(false);
    await this.#commit(() => this.#table.remove([doomed]));
    return true;
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.#assertOpen();
    const doomed: Doc[] = [...this.#table.matches(filter)];
    if (doomed.length === 0) return this.#answer(0);
    await this.#commit(() => this.#table.remove(doomed));
    return doomed.length;
  }

  /** Commits now and resolves once the commit is on disk. A refusal waits too: what it collided with may not be durable yet. */
  async #commit(write: () => void): Promise<void> {
    try {
      write();
    } catch (error) {
      if (error instanceof DuplicateKeyError || error instanceof TypeError) await this.#flush.settled()?.catch(() => undefined);
      throw error;
    }
    await this.#flush.durable();
  }

  /** An answer (a miss counts) waits until what it saw is durable; nothing pending, nothing waited. */
  #answer<R>(value: R): Promise<R> {
    const pending = this.#flush.settled();
    return pending ? pending.then(() => value) : Promise.resolve(value);
  }
}
