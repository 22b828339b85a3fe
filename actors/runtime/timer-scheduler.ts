/**
 * Fires durable timers. Timer rows live in their actors' documents with absolute due
 * times (ARCHITECTURE, Actors §6); this scheduler finds due rows through the
 * `nextTimerAt` index, on the shards this node serves, and delivers each as a
 * message through the actor's mailbox. It wakes on a poll, at the earliest due time
 * it has heard of, and whenever a test clock is moved forward. A delivery that fails
 * is handed to `failed`, which saves a later retry time on the row (so it stops
 * coming first in the index) or, past the retry policy, files it as a dead letter.
 */
import type { Logger } from 'pino';
import type { ActorAddress } from '../address.js';
import type { Clock } from '../clock.js';
import { ShardNotServedError, ShuttingDownError } from '../errors.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import type { Collection, Filter } from '../store/store.js';
import { firesAt, type ActorDocument, type TimerRow } from './actor-document.js';
import { timerFireMessage, type ActorMessage } from './messages.js';

export interface TimerSchedulerOptions {
  clock: Clock;
  logger: Logger;
  metrics: RuntimeMetrics;
  collections(): Iterable<Collection<ActorDocument>>;
  /** Filter restricting documents to the shards this node serves. */
  shardFilter(): Filter;
  deliver(address: ActorAddress, message: ActorMessage): Promise<unknown>;
  /** Records a failed delivery of `timer` on its actor. */
  failed(address: ActorAddress, timer: TimerRow, error: unknown): Promise<void>;
  pollMs: number;
  /** Rows fetched per collection and pass. */
  batchSize?: number;
}

export class TimerScheduler {
  #poll: NodeJS.Timeout | undefined;
  #wake: NodeJS.Timeout | undefined;
  #wakeAt = Infinity;
  #running: Promise<void> | undefined;
  #rerun: Promise<void> | undefined;
  #unsubscribe: (() => void) | undefined;
  #stopped = true;

  constructor(private readonly options: TimerSchedulerOptions) {}

  start(): void {
    this.#stopped = false;
    this.#poll = setInterval(() => void this.runDue(), this.options.pollMs);
    this.#poll.unref();
    this.#unsubscribe = this.options.clock.onAdvance(() => this.runDue());
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#poll);
    clearTimeout(this.#wake);
    this.#unsubscribe?.();
    await this.#running;
  }

  /** A write saved a timer due at `dueAt`: wake then, if that is sooner than planned. */
  noteDue(dueAt: number): void {
    if (this.#stopped || dueAt >= this.#wakeAt) return;
    clearTimeout(this.#wake);
    this.#wakeAt = dueAt;
    this.#wake = setTimeout(
      () => {
        this.#wakeAt = Infinity;
        void this.runDue();
      },
      Math.max(0, dueAt - this.options.clock.now()),
    );
    this.#wake.unref();
  }

  /**
   * Delivers every timer due now and resolves once they have been processed. Calls
   * that arrive during a pass share one follow-up pass, so none is missed.
   */
  runDue(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (!this.#running) {
      // A store that fails mid-pass (an outage, a lost connection) costs this pass only: the poll tries again.
      this.#running = this.#pass()
        .catch((error: unknown) => this.options.logger.warn({ err: error }, 'timer pass failed; trying again on the next one'))
        .finally(() => (this.#running = undefined));
      return this.#running;
    }
    this.#rerun ??= this.#running.then(() => {
      this.#rerun = undefined;
      return this.runDue();
    });
    return this.#rerun;
  }

  async #pass(): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    const tried = new Set<string>();
    // Firing a timer can arm another that is already due; keep going until none is.
    for (let round = 0; round < 100 && !this.#stopped; round++) {
      const now = this.options.clock.now();
      const deliveries: Promise<unknown>[] = [];
      for (const collection of this.options.collections()) {
        const docs = await collection.find(
          // Timers of actors on a test clock are due on that clock, not this one: its advance fires them (test-clock-time.ts).
          { ...this.options.shardFilter(), nextTimerAt: { $ne: null, $lte: now }, clockId: null },
          { sort: { nextTimerAt: 1 }, limit: batchSize, projection: { _id: 1, kind: 1, timers: 1 } },
        );
        for (const doc of docs) {
          const address = { kind: doc.kind, id: doc._id };
          // In the order they fall due, whatever order they were armed in: after a jump (a node back from an outage)
          // a payment's poll must run before its window, and one mailbox runs them in the order they are handed over.
          for (const timer of [...doc.timers].sort((a, b) => firesAt(a) - firesAt(b))) {
            const key = `${address.kind}:${address.id}:${timer.id}@${timer.dueAt}`;
            if (firesAt(timer) > now || tried.has(key)) continue;
            tried.add(key);
            deliveries.push(this.#fire(address, timer));
          }
        }
      }
      if (deliveries.length === 0) return;
      await Promise.all(deliveries);
    }
  }

  async #fire(address: ActorAddress, timer: TimerRow): Promise<void> {
    try {
      await this.options.deliver(address, timerFireMessage(timer));
      this.options.metrics.timerFired(address.kind, Math.max(0, this.options.clock.now() - timer.dueAt) / 1000);
    } catch (error) {
      // The shard moved or the node is stopping: the row stays for whoever serves it.
      if (error instanceof ShardNotServedError || error instanceof ShuttingDownError) return;
      this.options.logger.error({ err: error, actor: `${address.kind}:${address.id}`, timer: timer.id }, 'timer delivery failed');
      await this.options
        .failed(address, timer, error)
        .catch((failure: unknown) =>
          this.options.logger.error(
            { err: failure, actor: `${address.kind}:${address.id}`, timer: timer.id },
            'could not record a failed timer; it is tried again on the next pass',
          ),
        );
    }
  }
}
