/**
 * One limit counted for the whole cluster (store-windows.ts), insured the way
 * rate-limiter-flexible insures its store limiters: when the store fails to count, the
 * request is counted on an in-memory limiter of this node instead (its
 * `insuranceLimiter`), so an outage neither fails requests nor lifts the limit. The
 * insurance allows this node a share of the limit, the limit divided by the live nodes
 * (the shard leases' count, rounded down, at least 1): N nodes together stay within
 * the limit, give or take what a key had spent in the store before the outage.
 *
 * Why not rate-limiter-flexible's own RateLimiterStoreAbstract: version 11 declares it
 * in its types but does not export it (an import of it is undefined at run time), its
 * insurance covers a store that fails but not one that hangs (no timeout), and its
 * upsert contract wants a findOneAndUpdate our Store does not have. The library still
 * gives the result type (RateLimiterRes, rejected when spent, as every limiter of it
 * does) and the insurance limiter.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { PlatformError } from '../../actors/errors/platform-error.js';
import type { StoreOutage } from './store-outage.js';
import type { StoreWindows, WindowCount } from './store-windows.js';
import { withTimeLimit } from '../../actors/time-limit.js';

/** A limit's budgets, one per key: resolves with what is left, rejects with a RateLimiterRes when spent. */
export interface Budget {
  consume(key: string): Promise<RateLimiterRes>;
}

/** What every cluster budget of a node shares: one store, one clock, one view of the store's health. */
export interface ClusterCounting {
  windows: StoreWindows;
  outage: StoreOutage;
  now(): number;
  liveNodes(): number;
  /** How long a count may take before the request is counted on the insurance instead. */
  timeoutMs: number;
  /** Called after each count the store made, to keep expired windows from piling up. */
  counted(now: number): void;
}

export class ClusterBudget implements Budget {
  readonly #insurance: RateLimiterMemory;
  readonly #durationMs: number;

  constructor(
    private readonly name: string,
    private readonly points: number,
    durationSeconds: number,
    private readonly counting: ClusterCounting,
  ) {
    this.#durationMs = durationSeconds * 1000;
    this.#insurance = new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
  }

  async consume(key: string): Promise<RateLimiterRes> {
    const now = this.counting.now();
    if (this.counting.outage.askable(now)) {
      let count: WindowCount;
      try {
        count = await withTimeout(this.counting.windows.take(`${this.name}:${key}`, this.points, 1, this.#durationMs, now), this.counting.timeoutMs);
      } catch (error) {
        this.counting.outage.failed(error, now);
        return this.#insured(key);
      }
      this.counting.outage.answered();
      this.counting.counted(now);
      const result = new RateLimiterRes(Math.max(0, this.points - count.consumed), Math.max(0, count.expiresAt - now), count.consumed, count.consumed === 1);
      if (!count.allowed) throw result;
      return result;
    }
    return this.#insured(key);
  }

  /** The live nodes change while the store is down too: the share is taken at each request. */
  #insured(key: string): Promise<RateLimiterRes> {
    this.#insurance.points = Math.max(1, Math.floor(this.points / Math.max(1, this.counting.liveNodes())));
    return this.#insurance.consume(key);
  }
}

export class StoreTimeoutError extends PlatformError {
  override readonly name = 'StoreTimeoutError';
  readonly code = 'STORE_TIMEOUT';
}

/** The count goes on in the store if it was merely slow: a point counted twice is conservative. */
function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return withTimeLimit(work, timeoutMs, () => new StoreTimeoutError(`the store did not count within ${timeoutMs} ms`));
}
