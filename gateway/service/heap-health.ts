/**
 * The node's heap against V8's limit. Past HEAP_WARN_RATIO of the limit the node reports
 * degraded and warns once; below it again it reports healthy and says so once. An
 * embedded node keeps its documents on the heap, and a heap at its limit ends in a crash
 * ("Ineffective mark-compacts near heap limit", issue 42): the warning is the operator's
 * time to move to a larger heap or to MongoDB before that.
 *
 * The reading is taken when the health report is asked for and on the node's own timer
 * (deploy/node.ts), so a node nobody polls still warns.
 */
import { getHeapStatistics } from 'node:v8';
import type { Logger } from 'pino';

export const HEAP_WARN_RATIO = 0.8;

/** Bytes of V8's heap in use, and the most it may grow to. */
export interface HeapReading {
  used: number;
  limit: number;
}

export function v8Heap(): HeapReading {
  const statistics = getHeapStatistics();
  return { used: statistics.used_heap_size, limit: statistics.heap_size_limit };
}

export class HeapHealth {
  #high = false;

  constructor(
    private readonly logger: Logger,
    private readonly read: () => HeapReading = v8Heap,
  ) {}

  /** Reads the heap: why the node is degraded, or null while the heap is under the mark. */
  check(): string | null {
    const { used, limit } = this.read();
    const high = used > limit * HEAP_WARN_RATIO;
    const figures = { heapUsedBytes: used, heapLimitBytes: limit, heapUsedPercent: percent(used, limit) };
    if (high !== this.#high) {
      this.#high = high;
      if (high) this.logger.warn(figures, `heap above ${percent(HEAP_WARN_RATIO, 1)}% of its limit; the node reports degraded`);
      else this.logger.warn(figures, `heap back under ${percent(HEAP_WARN_RATIO, 1)}% of its limit; the node reports healthy`);
    }
    return high ? `the heap is at ${figures.heapUsedPercent}% of its limit` : null;
  }

  /** Checks every `everyMs` without holding the process open; returns the stop. */
  watch(everyMs: number): () => void {
    const timer = setInterval(() => this.check(), everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}

function percent(part: number, whole: number): number {
  return Math.round((part / whole) * 1000) / 10;
}
