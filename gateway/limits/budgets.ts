/**
 * Where a node counts its rate limits. Alone (no store given: no NATS_URL), in memory,
 * as rate-limiter-flexible's RateLimiterMemory: the node is the whole service, and the
 * embedded store on disk gets no write per request. In a cluster, in the cluster's
 * store (MongoDB, or the local stand-in), so that every limit is one budget for the
 * cluster whichever node a request reaches (cluster-budget.ts, store-windows.ts).
 */
import type { Logger } from 'pino';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { Store } from '../../actors/store/store.js';
import { type Budget, ClusterBudget, type ClusterCounting } from './cluster-budget.js';
import { StoreOutage } from './store-outage.js';
import { StoreWindows } from './store-windows.js';

export interface BudgetsOptions {
  /** The cluster's store. */
  store: Store;
  /** Where an outage of the store is reported. */
  logger: Logger;
  /** The clock windows are opened and closed by; Date.now unless a test drives it. */
  now?: () => number;
  /** The nodes alive now, for the share each may allow while the store is down; 1 unless known. */
  liveNodes?: () => number;
  /** How long a count in the store may take before the request is counted on this node's share (default 1 s). */
  timeoutMs?: number;
  /** How long the store is left alone after it failed to count (default 10 s). */
  pauseMs?: number;
}

/** Windows closed for longer than this are swept; the margin keeps a node with a slow clock from finding its window gone. */
const SWEEP_AFTER_MS = 60_000;
/** How often a node sweeps (every node does; deleting what another deleted costs nothing). */
const SWEEP_EVERY_MS = 60_000;

export class Budgets {
  readonly now: () => number;
  readonly #counting: ClusterCounting | null;
  #nextSweep = Number.NEGATIVE_INFINITY;

  /** Counted in `options.store`; null, in memory. */
  constructor(options: BudgetsOptions | null) {
    this.now = options?.now ?? Date.now;
    if (options === null) {
      this.#counting = null;
      return;
    }
    const { store, logger } = options;
    const windows = new StoreWindows(store);
    this.#counting = {
      windows,
      outage: new StoreOutage(logger, options.pauseMs ?? 10_000),
      now: this.now,
      liveNodes: options.liveNodes ?? (() => 1),
      timeoutMs: options.timeoutMs ?? 1_000,
      counted: (now) => {
        if (now < this.#nextSweep) return;
        this.#nextSweep = now + SWEEP_EVERY_MS;
        windows.sweep(now - SWEEP_AFTER_MS).catch((error: unknown) => logger.debug({ err: error }, 'rate limits: expired windows not swept this time'));
      },
    };
  }

  /** Budgets in memory, for a node alone and for tests of one node. */
  static inMemory(): Budgets {
    return new Budgets(null);
  }

  /** `points` per key per window of `durationSeconds`, counted under `name` (distinct per limit). */
  budget(name: string, points: number, durationSeconds: number): Budget {
    if (this.#counting === null) return new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
    return new ClusterBudget(name, points, durationSeconds, this.#counting);
  }
}
