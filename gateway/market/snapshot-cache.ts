/**
 * A snapshot answered from memory for `freshMs`, then built again on the next request: one
 * build at a time, requests meanwhile sharing it. While a build runs, a snapshot younger
 * than `staleMs` still answers (the orderbook: document 3 allows data up to 60 seconds
 * old); an older one, or none, waits for the build, and a failed build is a 503.
 */
import type { Logger } from 'pino';
import type { ApiError } from '../envelope.js';

export interface SnapshotCacheOptions<T> {
  /** Makes a snapshot as of `builtAt` (milliseconds since the epoch, on the node's clock). */
  build(builtAt: number): Promise<T>;
  now(): number;
  freshMs: number;
  /** How old a snapshot may still answer while the next is built; 0 never. */
  staleMs: number;
  logger: Logger;
  /** What the snapshot is of, for the log: `orderbook`. */
  what: string;
  unavailable(): ApiError;
}

export class SnapshotCache<T> {
  #current: { value: T; builtAt: number } | null = null;
  #building: Promise<T> | null = null;

  constructor(private readonly o: SnapshotCacheOptions<T>) {}

  async get(): Promise<T> {
    const current = this.#current;
    const age = current ? this.o.now() - current.builtAt : Infinity;
    if (current && age < this.o.freshMs) return current.value;
    const next = this.#build();
    if (current && age < this.o.staleMs) {
      // The build's own failure is logged once, in #build; requests meanwhile keep the last snapshot.
      next.catch(() => undefined);
      return current.value;
    }
    return next.catch(() => {
      throw this.o.unavailable();
    });
  }

  #build(): Promise<T> {
    this.#building ??= (async () => {
      const builtAt = this.o.now();
      const value = await this.o.build(builtAt);
      this.#current = { value, builtAt };
      return value;
    })()
      .catch((error: unknown) => {
        this.o.logger.error({ err: error }, `the ${this.o.what} could not be built`);
        throw error;
      })
      .finally(() => {
        this.#building = null;
      });
    return this.#building;
  }
}
