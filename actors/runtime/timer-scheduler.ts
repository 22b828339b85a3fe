/**
 * Fires durable timers. Timer rows live in their actors' documents with absolute due
 * times (ARCHITECTURE, Actors §6); this scheduler finds due rows through the
 * `nextTimerAt` index, on the shards this node serves, and delivers each as a
 * message through the actor's mailbox. It wakes on a poll, at the earliest due time
 * it has heard of, and whenever a test clock is moved forward.
 */
import type { Logger } from 'pino';
import type { ActorAddress } from '../address.js';
import type { Clock } from '../clock.js';
import type { Collection, Filter } from '../store/store.js';
import type { ActorDocument } from './actor-document.js';
import { TIMER_EVENT, type ActorMessage, type TimerFireEvent } from './messages.js';

export interface TimerSchedulerOptions {
  clock: Clock;
  logger: Logger;
  collections(): Iterable<Collection<ActorDocument>>;
  /** Filter restricting documents to the shards this node serves. */
  shardFilter(): Filter;
  deliver(address: ActorAddress, message: ActorMessage): Promise<unknown>;
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
    this.#wake = setTimeout(() => {
      this.#wakeAt = Infinity;
      void this.runDue();
    }, Math.max(0, dueAt - this.options.clock.now()));
    this.#wake.unref();
  }

  /**
   * Delivers every timer due now and resolves once they have been processed. Calls
   * that arrive during a pass share one follow-up pass, so none is missed.
   */
  runDue(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (!this.#running) {
      this.#running = this.#pass().finally(() => (this.#running = undefined));
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
    const failed = new Set<string>();
    // Firing a timer can arm another that is already due; keep going until none is.
    for (let round = 0; round < 100 && !this.#stopped; round++) {
      const now = this.options.clock.now();
      const deliveries: Promise<unknown>[] = [];
      for (const collection of this.options.collections()) {
        const docs = await collection.find(
          { ...this.options.shardFilter(), nextTimerAt: { $ne: null, $lte: now } },
          { sort: { nextTimerAt: 1 }, limit: batchSize, projection: { _id: 1, kind: 1, timers: 1 } },
        );
        for (const doc of docs) {
          const address = { kind: doc.kind, id: doc._id };
          for (const timer of doc.timers) {
            const key = `${address.kind}:${address.id}:${timer.id}@${timer.dueAt}`;
            if (timer.dueAt > now || failed.has(key)) continue;
            const fire: TimerFireEvent = { type: TIMER_EVENT, timerId: timer.id, dueAt: timer.dueAt };
            const message: ActorMessage = { id: `timer:${timer.id}@${timer.dueAt}`, event: fire };
            deliveries.push(
              this.options.deliver(address, message).catch((error: unknown) => {
                failed.add(key);
                this.options.logger.error({ err: error, actor: `${address.kind}:${address.id}`, timer: timer.id }, 'timer delivery failed; retried on the next pass');
              }),
            );
          }
        }
      }
      if (deliveries.length === 0) return;
      await Promise.all(deliveries);
    }
  }
}
