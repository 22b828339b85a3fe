/**
 * The local stand-in for MongoDB: one in-memory store served over a loopback socket
 * (socket-store-server.ts) that several processes share as clients (socket-store.ts).
 * `npm run cluster` and the multi-process tests use it where no MongoDB is at hand;
 * it keeps nothing across the serving process's death and is refused in production.
 */
export { SocketStore, StoreConnectionLostError, StoreUnavailableError, type SocketStoreOptions } from './socket-store.js';
export { SocketStoreServer, type SocketStoreServerOptions } from './socket-store-server.js';
