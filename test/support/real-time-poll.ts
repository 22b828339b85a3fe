/**
 * Waiting on a test node whose chain, indexer and simulator are real processes: poll
 * with short real sleeps. The node's clock is a TestClock, which moves only when told,
 * and its retries and re-checks (a transaction's next receipt check, an effect's
 * backoff) are timers on it: so each round moves it on by the real time that passed, as
 * a running node's clock would move. Without that, a receipt checked once before its
 * block was mined is never checked again.
 */
import type { TestClock } from '../../actors/index.js';

export interface PollOptions {
  attempts?: number;
  /** Said on a timeout, after the last value seen: what the node was doing. */
  explain?: () => Promise<string>;
}

export async function untilOnClock<T>(
  clock: TestClock,
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  options: PollOptions = {},
): Promise<T> {
  let last: T | undefined;
  let then = Date.now();
  for (let attempt = 0; attempt < (options.attempts ?? 600); attempt++) {
    last = await read();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, 25));
    const now = Date.now();
    await clock.advance(now - then);
    then = now;
  }
  throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(last)}${options.explain ? await options.explain() : ''}`);
}
