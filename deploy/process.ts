/** What every entry point does around its service: read the configuration or exit, and stop once on SIGTERM or SIGINT. */
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config, type ProcessRole } from '../actors/index.js';

/** The configuration of a process in `role`, or exit 1 with the message naming each bad variable. */
export function configOrExit(role: ProcessRole = 'node'): Config {
  try {
    return loadConfig(process.env, role);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}

/** Runs `stop` on the first SIGTERM or SIGINT and exits 0 when it is done, 1 when it fails or outlasts `timeoutMs` (naming what it was `waitingOn`). */
export function stopOnSignal(logger: Logger, timeoutMs: number, stop: () => Promise<void>, waitingOn: () => string | null = () => null): void {
  let signalled = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      logger.info({ signal }, 'stopping');
      const deadline = setTimeout(() => {
        logger.error({ timeoutMs, waitingOn: waitingOn() }, 'stop did not finish in time; exiting');
        process.exit(1);
      }, timeoutMs);
      deadline.unref();
      stop().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'stop failed');
          process.exit(1);
        },
      );
    });
  }
}
