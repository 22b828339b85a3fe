/**
 * The store interface. It is MongoDB-shaped on purpose: filters, sorts and update
 * documents use MongoDB's query language, so the embedded adapter (mingo) and the
 * MongoDB adapter (official driver) answer the same calls the same way. Both are
 * held to one contract suite (test/actors/store/contract.ts).
 */
export type Filter = Record<string, unknown>;
export type SortSpec = Record<string, 1 | -1>;
export type Projection = Record<string, 0 | 1>;

/** Update operators every adapter supports. */
export interface UpdateSpec {
  $set?: Record<string, unknown>;
  $unset?: Record<string, '' | 1 | true>;
  $inc?: Record<string, number>;
  $push?: Record<string, unknown>;
  $pull?: Record<string, unknown>;
}

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  limit?: number;
  projection?: Projection;
}

export interface CountOptions {
  /** Count no further than this many matches (MongoDB's countDocuments `limit`): a capped total holds no request long. */
  limit?: number;
}

export interface IndexSpec {
  /** Fields in order, 1 ascending, -1 descending. Dotted paths reach into subdocuments. */
  key: Record<string, 1 | -1>;
  unique?: boolean;
  /** Only documents matching this filter are indexed (and held to `unique`). */
  partialFilterExpression?: Filter;
  name?: string;
  /**
   * The leading field holds arrays (an order's search grams). The embedded stores keep
   * only its postings, since an order over documents filed under many keys is never
   * one they can walk; MongoDB builds its multikey index as always.
   */
  multikey?: boolean;
}

export interface CollectionSpec {
  name: string;
  indexes: IndexSpec[];
}

/** Every stored document has a string `_id`. */
export interface StoredDocument {
  _id: string;
  [field: string]: unknown;
}

/**
 * `handOff`: the caller never changes the document, or anything in it, after the call,
 * so a store in this process may keep it as it is rather than copy it (under the tests
 * the embedded store freezes it, so that a change throws). The runtime's documents are
 * values built anew by every turn, and copying each one in was a tenth of a turn.
 */
export interface WriteOptions {
  handOff?: boolean;
}

export interface Collection<T extends StoredDocument = StoredDocument> {
  readonly name: string;
  findOne(filter: Filter, options?: Pick<FindOptions, 'sort' | 'projection'>): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter, options?: CountOptions): Promise<number>;
  /** Throws DuplicateKeyError when `_id` or a unique index collides. */
  insertOne(doc: T, options?: WriteOptions): Promise<void>;
  /** Replaces the first match. Returns whether a document matched; the conditional write of a turn. */
  replaceOne(filter: Filter, doc: T, options?: WriteOptions): Promise<boolean>;
  /** Updates the first match. Returns whether a document matched. */
  updateOne(filter: Filter, update: UpdateSpec): Promise<boolean>;
  deleteOne(filter: Filter): Promise<boolean>;
  deleteMany(filter: Filter): Promise<number>;
}

export interface StoreStatus {
  connected: boolean;
  /** Round trip of a ping, in milliseconds. */
  responseTimeMs?: number;
}

export interface Store {
  readonly adapter: 'embedded' | 'mongodb' | 'socket';
  /**
   * Declares a collection and its indexes (idempotent) and returns it. Declaring the
   * same name twice with different indexes adds the new ones.
   */
  collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>>;
  status(): Promise<StoreStatus>;
  close(): Promise<void>;
}
