/**
 * The store a process opens by configuration: MongoDB at MONGODB_URI, the local stand-in
 * for MongoDB at STANDIN_STORE_URL (actors/store/socket/, never in production), or, with
 * neither, what the caller keeps on its own (the node's embedded store in DATA_DIR, an
 * indexer's in-memory log).
 */
import { MongoStore, durabilityOf, type Config, type Store } from '../actors/index.js';
import { SocketStore } from '../actors/store/socket/index.js';

/** How long a call to the stand-in may go unanswered before it counts as lost: the runtime then reloads what it wrote. */
const STANDIN_CALL_TIMEOUT_MS = 10_000;

export async function openConfiguredStore(config: Config, alone: () => Promise<Store>): Promise<Store> {
  if (config.MONGODB_URI) return MongoStore.connect(config.MONGODB_URI, { dbName: config.MONGODB_DB, durability: durabilityOf(config) });
  if (config.STANDIN_STORE_URL) {
    const { hostname, port } = new URL(config.STANDIN_STORE_URL);
    return SocketStore.connect({ host: hostname, port: Number(port), callTimeoutMs: STANDIN_CALL_TIMEOUT_MS });
  }
  return alone();
}
