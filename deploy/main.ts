/**
 * `npm start`: reads the configuration, boots one node and drains it on SIGTERM or
 * SIGINT (stop taking requests, finish turns in flight, release shard leases, exit 0).
 */
import { ConfigError, createLogger, loadConfig, type Config } from '../actors/index.js';
import { startNode } from './node.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const logger = createLogger({ level: config.LOG_LEVEL });
const node = await startNode({ config, logger }).catch((error: unknown) => {
  logger.fatal({ err: error }, 'node failed to start');
  process.exit(1);
});

let signalled = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (signalled) return;
    signalled = true;
    logger.info({ signal }, 'draining');
    const deadline = setTimeout(() => {
      logger.error({ drainTimeoutMs: config.DRAIN_TIMEOUT_MS }, 'drain did not finish in time; exiting');
      process.exit(1);
    }, config.DRAIN_TIMEOUT_MS);
    deadline.unref();
    node.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'drain failed');
        process.exit(1);
      },
    );
  });
}
