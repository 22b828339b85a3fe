/**
 * `npm start`: reads the configuration, boots one node and drains it on SIGTERM or
 * SIGINT (stop taking requests, finish turns in flight, release shard leases, exit 0).
 *
 * On a terminal in development or test the logs are pino's own pretty lines and a start banner follows them
 * (start-banner.ts); anywhere else the logs stay JSON, one line each, and what only a
 * person may see (the demo merchant's keys, a new admin token) goes to stderr as plain text.
 */
import pretty from 'pino-pretty';
import { createLogger } from '../actors/index.js';
import { startNode } from './node.js';
import { configOrExit, stopOnSignal } from './process.js';
import { plainWelcome, startBanner, startFactsOf } from './start-banner.js';

const config = configOrExit();
// A production node keeps JSON even on a terminal (`docker run -t`): its log store reads lines, not prose.
const terminal = process.stdout.isTTY === true && config.NODE_ENV !== 'production';
// Synchronous, so the banner written after the start line comes after it.
const destination = terminal
  ? pretty({ sync: true, colorize: true, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname,name,node' })
  : undefined;
const logger = createLogger({ level: config.LOG_LEVEL, ...(destination ? { destination } : {}) });
const node = await startNode({ config, logger }).catch((error: unknown) => {
  logger.fatal({ err: error }, 'node failed to start');
  process.exit(1);
});
if (terminal) process.stdout.write(`${startBanner(startFactsOf(node))}\n`);
else if (node.welcome) process.stderr.write(plainWelcome(node.welcome, config.DATA_DIR));
stopOnSignal(
  logger,
  config.DRAIN_TIMEOUT_MS,
  () => node.stop(),
  () => node.stoppingAt(),
);
