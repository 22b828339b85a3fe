/**
 * One run of some work per activation at a time: scheduling it while it runs has it
 * run once more when it ends, so a turn landing mid-run is never missed and never run
 * beside itself. The outbox runner's drains and the history writer's flushes are such
 * runs.
 */
import type { Activation } from './activation.js';

export interface SerialRunsOptions {
  run(activation: Activation): Promise<void>;
  /** A run that threw; the next schedule tries again. */
  failed(error: unknown, activation: Activation): void;
  /** Whether a run may start now (false once the owner stops). */
  open(): boolean;
}

export class SerialRuns {
  readonly #running = new Map<Activation, Promise<void>>();
  readonly #again = new Set<Activation>();

  constructor(private readonly options: SerialRunsOptions) {}

  schedule(activation: Activation): void {
    if (!this.options.open()) return;
    if (this.#running.has(activation)) {
      this.#again.add(activation);
      return;
    }
    const run = this.options
      .run(activation)
      .catch((error: unknown) => this.options.failed(error, activation))
      .finally(() => {
        this.#running.delete(activation);
        if (this.#again.delete(activation)) this.schedule(activation);
      });
    this.#running.set(activation, run);
  }

  isRunning(activation: Activation): boolean {
    return this.#running.has(activation);
  }

  /** Resolves when this activation's run (if one runs), and any run again after it, has ended. */
  async ended(activation: Activation): Promise<void> {
    while (this.#running.has(activation)) await this.#running.get(activation);
  }

  /** Resolves when no run is going. */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()]);
  }
}
