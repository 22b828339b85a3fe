/**
 * `npm run indexer`: the indexer on its own, gRPC on INDEXER_GRPC_ADDR, over
 * CHAIN_RPC_URL or a local anvil it starts. Its log lives in MONGODB_URI's store,
 * or in memory when unset (a local chain starts empty each time anyway).
 */
import { ConfigError, EmbeddedStore, MongoStore, createLogger, loadConfig, type Config } from '../actors/index.js';
import { openChain, startIndexerOn } from './chain.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const logger = createLogger({ level: config.LOG_LEVEL }).child({ service: 'indexer' });
const store = config.MONGODB_URI ? await MongoStore.connect(config.MONGODB_URI, { dbName: config.MONGODB_DB }) : new EmbeddedStore();
const started = await (async () => {
  const chain = await openChain(config, logger);
  const indexer = await startIndexerOn(chain, store, config, logger, config.INDEXER_GRPC_ADDR);
  return { chain, indexer };
})().catch((error: unknown) => {
  logger.fatal({ err: error }, 'indexer failed to start');
  process.exit(1);
});

let signalled = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, 'stopping');
    void (async () => {
      await started.indexer.stop();
      await started.chain.localChain?.stop();
      await store.close();
      process.exit(0);
    })().catch((error: unknown) => {
      logger.error({ err: error }, 'stop failed');
      process.exit(1);
    });
  });
}
