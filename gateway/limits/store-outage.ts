/**
 * Whether the cluster's budgets may ask the store now, shared by every budget of a
 * node (they count in one store, so one outage is one outage). A failed or timed-out
 * count pauses the store for `pauseMs`: during the pause requests are counted on the
 * insurance budgets at once rather than each waiting out a timeout; the first count
 * after it tries the store again. The outage is logged once when it begins and once
 * when the store answers again, not once per request.
 */
import type { Logger } from 'pino';

export class StoreOutage {
  #pausedUntil = Number.NEGATIVE_INFINITY;
  #down = false;

  constructor(
    private readonly logger: Logger,
    private readonly pauseMs: number,
  ) {}

  /** Whether a count may go to the store at `now`. */
  askable(now: number): boolean {
    return now >= this.#pausedUntil;
  }

  failed(error: unknown, now: number): void {
    this.#pausedUntil = now + this.pauseMs;
    if (this.#down) return;
    this.#down = true;
    this.logger.warn({ err: error, pauseMs: this.pauseMs }, 'rate limits: the store did not count; each node counts its share of every limit until it does');
  }

  answered(): void {
    if (!this.#down) return;
    this.#down = false;
    this.logger.info('rate limits: counted in the store again, for the whole cluster');
  }
}
