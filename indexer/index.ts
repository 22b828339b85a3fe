/**
 * indexer/: the chain watcher (viem) and its gRPC server, and the local dev chain
 * (anvil and our contracts, in chain/) for the embedded default and tests. It reads
 * only proto/ of ours; whoever starts it (deploy/) hands it a store's collections.
 */
export * from './events.js';
export * from './fact-store.js';
export * from './follower.js';
export * from './indexer-server.js';
