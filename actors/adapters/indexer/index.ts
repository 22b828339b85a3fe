/**
 * actors/adapters/indexer: the gRPC client of the chain indexer. Its stand-in is the indexer run
 * in the node's own process over the local chain (deploy/chain.ts).
 */
export { indexerClient } from './indexer-client.js';
