/**
 * Time for the runtime. Every due time and deadline reads `now()` from a Clock,
 * so tests and the sandbox can move time forward instead of waiting for it.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /**
   * Registers a callback run whenever time jumps forward. The system clock never
   * jumps, so only the test clock calls it; the timer scheduler listens here.
   */
  onAdvance(listener: () => Promise<void> | void): () => void;
}

export class SystemClock implements Clock {
  now(): number {
    return Date.now();
  }

  onAdvance(): () => void {
    return () => {};
  }
}

export class TestClock implements Clock {
  #now: number;
  readonly #listeners = new Set<() => Promise<void> | void>();

  constructor(start: number | Date = Date.UTC(2026, 0, 1)) {
    this.#now = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.#now;
  }

  onAdvance(listener: () => Promise<void> | void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Moves time forward and resolves once every listener (timer firing included) has finished. */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`cannot advance a clock by ${ms} ms`);
    this.#now += ms;
    await Promise.all([...this.#listeners].map((listener) => listener()));
  }
}
