/**
 * The MongoDB store. Mongoose owns the connection and declares each collection as a
 * model, so its indexes are part of a schema; reads and writes go straight through
 * the official driver's collection with the caller's filters untouched, which keeps
 * the semantics those of the server (and of mingo in the embedded store).
 */
import type { Connection, IndexOptions, Mongoose } from 'mongoose';
import type { Collection as DriverCollection, Db, FindOptions as DriverFindOptions, UpdateFilter } from 'mongodb';
import { DuplicateKeyError } from '../errors.js';
import type { Collection, CollectionSpec, CountOptions, Filter, FindOptions, IndexSpec, Store, StoreStatus, StoredDocument, UpdateSpec } from './store.js';

/** A health check should answer promptly even when the server does not. */
const PING_TIMEOUT_MS = 5_000;

export interface MongoDurability {
  /** `majority`, or how many members acknowledge a write. */
  writeConcern: 'majority' | number;
  /** Whether a write is acknowledged only once it is in the journal. */
  journal: boolean;
  readConcern: 'majority' | 'local' | 'linearizable';
}

/**
 * Money moves on these writes, so they are acknowledged by a majority, journaled,
 * and reads see only majority-committed data: a failover never rolls back a turn
 * whose reply (or effects) already left the node. Pinned here rather than left to
 * the driver's defaults, which depend on the server and the URI.
 */
export const DEFAULT_DURABILITY: MongoDurability = { writeConcern: 'majority', journal: true, readConcern: 'majority' };

/** The driver options that carry `durability`. */
export function durabilityOptions(durability: MongoDurability) {
  return {
    writeConcern: { w: durability.writeConcern, journal: durability.journal },
    readConcern: { level: durability.readConcern },
  } as const;
}

export class MongoStore implements Store {
  readonly adapter = 'mongodb' as const;
  readonly #mongoose: Mongoose;
  readonly #connection: Connection;
  readonly #db: Db;
  /** Every index declared so far, per collection and by name: a redeclaration rebuilds the model with all of them. */
  readonly #indexes = new Map<string, Map<string, IndexSpec>>();

  private constructor(mongoose: Mongoose, connection: Connection, db: Db) {
    this.#mongoose = mongoose;
    this.#connection = connection;
    this.#db = db;
  }

  static async connect(uri: string, options: { dbName?: string; durability?: MongoDurability } = {}): Promise<MongoStore> {
    // Loaded only when a deployment selects MongoDB: mongoose and the driver are a fifth of every embedded process's start.
    const { default: mongoose } = await import('mongoose');
    const connection = await mongoose
      .createConnection(uri, { ...(options.dbName ? { dbName: options.dbName } : {}), ...durabilityOptions(options.durability ?? DEFAULT_DURABILITY) })
      .asPromise();
    const db = connection.db;
    if (!db) {
      await connection.close();
      throw new Error('mongoose connected without a database handle');
    }
    return new MongoStore(mongoose, connection, db);
  }

  async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
    const indexes = this.#indexes.get(spec.name) ?? new Map<string, IndexSpec>();
    for (const index of spec.indexes) indexes.set(indexName(index), index);
    this.#indexes.set(spec.name, indexes);

    // Index builds are awaited below rather than left to mongoose's background autoIndex, so failures reach the caller.
    const schema = new this.#mongoose.Schema({ _id: String }, { strict: false, versionKey: false, collection: spec.name, autoIndex: false, autoCreate: false });
    for (const index of indexes.values()) schema.index(index.key, indexOptions(index));
    if (this.#connection.models[spec.name]) this.#connection.deleteModel(spec.name);
    const model = this.#connection.model(spec.name, schema);
    // createIndexes rather than syncIndexes: syncIndexes also drops every index the schema does not list,
    // which would remove indexes another node, a newer release or an operator added to a shared collection.
    await mapDuplicateKey(spec.name, () => model.createIndexes());
    return new MongoCollection<T>(this.#db.collection<StoredDocument>(spec.name));
  }

  async status(): Promise<StoreStatus> {
    if (this.#connection.readyState !== this.#mongoose.ConnectionStates.connected) return { connected: false };
    const started = performance.now();
    try {
      await this.#db.command({ ping: 1 }, { signal: AbortSignal.timeout(PING_TIMEOUT_MS) });
      return { connected: true, responseTimeMs: performance.now() - started };
    } catch {
      return { connected: false };
    }
  }

  async close(): Promise<void> {
    await this.#connection.close();
  }
}

class MongoCollection<T extends StoredDocument> implements Collection<T> {
  readonly #collection: DriverCollection<StoredDocument>;

  constructor(collection: DriverCollection<StoredDocument>) {
    this.#collection = collection;
  }

  get name(): string {
    return this.#collection.collectionName;
  }

  // The casts to T below hold because a collection only stores what it was declared with.

  async findOne(filter: Filter, options: Pick<FindOptions, 'sort' | 'projection'> = {}): Promise<T | null> {
    return (await this.#collection.findOne(filter, driverFindOptions(options))) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return (await this.#collection.find(filter, driverFindOptions(options)).toArray()) as T[];
  }

  count(filter: Filter, options: CountOptions = {}): Promise<number> {
    return this.#collection.countDocuments(filter, options.limit ? { limit: options.limit } : {});
  }

  async insertOne(doc: T): Promise<void> {
    await mapDuplicateKey(this.name, () => this.#collection.insertOne(doc));
  }

  async replaceOne(filter: Filter, doc: T): Promise<boolean> {
    const result = await mapDuplicateKey(this.name, () => this.#collection.replaceOne(filter, doc));
    return result.matchedCount > 0;
  }

  async updateOne(filter: Filter, update: UpdateSpec): Promise<boolean> {
    // The driver types each operator's fields against the schema, and StoredDocument's are `unknown`.
    const result = await mapDuplicateKey(this.name, () => this.#collection.updateOne(filter, update as UpdateFilter<StoredDocument>));
    return result.matchedCount > 0;
  }

  async deleteOne(filter: Filter): Promise<boolean> {
    return (await this.#collection.deleteOne(filter)).deletedCount > 0;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.#collection.deleteMany(filter)).deletedCount;
  }
}

/** MongoDB's default index name, so a spec without one is recognised when declared again. */
function indexName(index: IndexSpec): string {
  return (
    index.name ??
    Object.entries(index.key)
      .map(([field, direction]) => `${field}_${direction}`)
      .join('_')
  );
}

/** Only the options the spec sets: an explicit `undefined` would reach the server as null. */
function indexOptions(index: IndexSpec): IndexOptions & { unique?: boolean } {
  const options: IndexOptions & { unique?: boolean } = { name: indexName(index) };
  if (index.unique) options.unique = true;
  if (index.partialFilterExpression) options.partialFilterExpression = index.partialFilterExpression;
  return options;
}

function driverFindOptions(options: FindOptions): DriverFindOptions {
  const out: DriverFindOptions = {};
  if (options.sort) out.sort = options.sort;
  if (options.skip !== undefined) out.skip = options.skip;
  if (options.limit !== undefined) out.limit = options.limit;
  if (options.projection) out.projection = options.projection;
  return out;
}

async function mapDuplicateKey<R>(collection: string, run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    // Duck-typed rather than `instanceof MongoServerError`, which breaks if mongoose ever bundles its own driver copy.
    if (error instanceof Error && 'code' in error && error.code === 11000) {
      const index = /index: (\S+) dup key/.exec(error.message)?.[1] ?? 'unknown';
      const keyValue = 'keyValue' in error ? error.keyValue : undefined;
      throw new DuplicateKeyError(collection, `${index} ${JSON.stringify(keyValue ?? {})}`);
    }
    throw error;
  }
}
