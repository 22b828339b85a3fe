/**
 * `npm run indexer`: the indexer on its own, gRPC on INDEXER_GRPC_ADDR, over
 * CHAIN_RPC_URL or a local anvil it starts. Its log lives in MONGODB_URI's store (or the
 * local stand-in's, STANDIN_STORE_URL),
 * or in memory when unset (a local chain starts empty each time anyway).
 */
import { EmbeddedStore, createLogger } from '../actors/index.js';
import { openChain, startIndexerOn } from './chain.js';
import { configOrExit, stopOnSignal } from './process.js';
import { openConfiguredStore } from './store.js';

const config = configOrExit('indexer');
const logger = createLogger({ level: config.LOG_LEVEL }).child({ service: 'indexer' });
const store = await openConfiguredStore(config, async () => new EmbeddedStore());
const { chain, indexer } = await (async () => {
  const opened = await openChain(config, logger);
  return { chain: opened, indexer: await startIndexerOn(opened, store, config, logger, config.INDEXER_GRPC_ADDR) };
})().catch((error: unknown) => {
  logger.fatal({ err: error }, 'indexer failed to start');
  process.exit(1);
});
stopOnSignal(logger, config.DRAIN_TIMEOUT_MS, async () => {
  await indexer.stop();
  await chain.localChain?.stop();
  await store.close();
});
