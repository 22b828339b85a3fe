/**
 * indexer/: the chain watcher (viem) and its gRPC server, and the local dev chain
 * for the embedded default and tests. Built by the indexer issue.
 */
export {};
