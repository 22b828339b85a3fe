/**
 * indexer/: the chain watcher (viem) and its gRPC server, and the local dev chain
 * (anvil and our contracts, in chain/) for the embedded default and tests. It reads
 * only proto/ of ours; whoever starts it (deploy/) hands it a store's collections.
 */
export { decodeProtocolLog, decodeTransferLog, escrowEvents, orchestratorEvents, transferEvent } from './events.js';
export type { FactEvent } from './events.js';
export { indexerCollectionSpecs } from './fact-store.js';
export type {
  BackfillDocument,
  BlockMark,
  CursorDocument,
  FactDocument,
  Filter,
  IndexerCollection,
  IndexerCollections,
  IndexerCollectionSpec,
  IndexerDocument,
  WatchedDocument,
} from './fact-store.js';
export { Follower, ReorgTooDeepError } from './follower.js';
export type { ChainContracts, Finality, FollowerHealth, FollowerOptions } from './follower.js';
export { DEFAULT_MAX_LAG_BLOCKS, INDEXER_SERVICE_NAME, startIndexer } from './indexer-server.js';
export type { IndexerOptions, RunningIndexer } from './indexer-server.js';
