/**
 * Where actors and their indexes are kept. One MongoDB-shaped interface (store.ts)
 * with two adapters: EmbeddedStore, in process for tests and single-node runs, and
 * MongoStore for deployments. Both pass the same contract suite.
 */
export type {
  Collection,
  CollectionSpec,
  CountOptions,
  Filter,
  FindOptions,
  IndexSpec,
  Projection,
  SortSpec,
  Store,
  StoredDocument,
  StoreStatus,
  UpdateSpec,
  WriteOptions,
} from './store.js';
export { setOrInsert } from './set-or-insert.js';
export { EmbeddedStore } from './embedded-store.js';
export { DEFAULT_DURABILITY, MongoStore, durabilityOptions, type MongoDurability } from './mongo-store.js';
