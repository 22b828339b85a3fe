/**
 * `npm start`: reads the configuration, boots one node and drains it on SIGTERM or
 * SIGINT (stop taking requests, finish turns in flight, release shard leases, exit 0).
 */
import { createLogger } from '../actors/index.js';
import { startNode } from './node.js';
import { configOrExit, stopOnSignal } from './process.js';

const config = configOrExit();
const logger = createLogger({ level: config.LOG_LEVEL });
const node = await startNode({ config, logger }).catch((error: unknown) => {
  logger.fatal({ err: error }, 'node failed to start');
  process.exit(1);
});
stopOnSignal(logger, config.DRAIN_TIMEOUT_MS, () => node.stop());
