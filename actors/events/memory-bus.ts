/**
 * In-process event bus for the embedded all-in-one node. It keeps the JetStream
 * adapter's guarantees within one process: an append-only log de-duplicated by
 * event id, named durable cursors that survive stop() and a later consume(), and
 * ordered, one-at-a-time, at-least-once delivery where a failing event is retried
 * with backoff (the retry policy) and holds back the events behind it until it
 * succeeds or, with a dead-letter store, becomes a dead letter. Opened with a journal
 * (`MemoryBus.open`), the log and the positions are kept in the node's store and
 * survive the process; without one, nothing does.
 */
import type { Logger } from 'pino';
import { BusDeadLetters, Serial, consumerNotRunning, eventMatcher, eventPayload } from './event-bus.js';
import type { BusDeadLetterOptions, ConsumeOptions, DomainEvent, EventBus, EventBusStatus, EventHandler, Subscription } from './event-bus.js';
import { deepCopy } from '../store/deep-copy.js';
import type { BusJournal } from './bus-journal.js';

export interface MemoryBusOptions extends BusDeadLetterOptions {
  /**
   * How many of the most recent event ids are remembered for de-duplication
   * (default 100,000), the in-memory counterpart of JetStream's duplicate window:
   * an id older than that is accepted again.
   */
  dedupWindow?: number;
  /**
   * How many events the log retains at most (default 100,000), like a stream's max_msgs
   * with discard old: a durable consumer that falls further behind skips ahead.
   */
  maxEvents?: number;
  logger?: Logger;
  /** Where the log and the positions are kept; use `MemoryBus.open` so they are read back first. */
  journal?: BusJournal;
}

interface Cursor {
  stopped: boolean;
  /** True while the cursor has caught up and waits for the next publish. */
  idle: boolean;
  /** Ends the current wait (new event, backoff elapsed, or stop). */
  wake?: () => void;
  done: Promise<void>;
  /** The consumer's deliveries and retries of its dead letters, one at a time. */
  serial: Serial;
  /** Takes the consumer off the dead-letter store's list of live consumers. */
  unlist: () => void;
}

export class MemoryBus implements EventBus {
  readonly adapter = 'memory' as const;
  readonly #dedupWindow: number;
  readonly #maxEvents: number;
  readonly #logger: Logger | undefined;
  readonly #log: DomainEvent[] = [];
  /** Sequence number of `#log[0]`; grows as old events are dropped. */
  #firstSeq = 0;
  /** Insertion-ordered, so the oldest id is the first one to evict. */
  readonly #ids = new Set<string>();
  /** Next sequence to deliver per durable name; kept after the consumer stops. */
  readonly #positions = new Map<string, number>();
  readonly #cursors = new Map<string, Cursor>();
  readonly #retries: BusDeadLetters;
  readonly #journal: BusJournal | undefined;
  #closed = false;

  constructor(options: MemoryBusOptions = {}) {
    this.#dedupWindow = options.dedupWindow ?? 100_000;
    this.#maxEvents = options.maxEvents ?? 100_000;
    this.#logger = options.logger;
    this.#retries = new BusDeadLetters(options);
    this.#journal = options.journal;
  }

  /** A bus whose log and positions are read back from its journal and kept there from now on. */
  static async open(options: MemoryBusOptions & { journal: BusJournal }): Promise<MemoryBus> {
    const bus = new MemoryBus(options);
    const { events, positions } = await options.journal.load();
    if (events.length > 0) bus.#firstSeq = events[0]!.seq;
    for (const { event } of events) {
      bus.#log.push(event);
      bus.#remember(event.id);
    }
    for (const [durable, next] of positions) bus.#positions.set(durable, next);
    return bus;
  }

  async publish(event: DomainEvent): Promise<void> {
    this.#assertOpen();
    if (this.#ids.has(event.id)) return;
    this.#remember(event.id);
    const seq = this.#firstSeq + this.#log.length;
    // A copy, so neither the publisher nor a handler can change what others receive; handlers get copies of it.
    const logged = deepCopy(event);
    this.#log.push(logged);
    this.#trim();
    for (const cursor of this.#cursors.values()) if (cursor.idle) cursor.wake?.();
    // Resolves only once the event is durable: the caller's outbox lets go of it then. The journal keeps the log's copy.
    await this.#journal?.append(seq, logged);
  }

  #remember(id: string): void {
    this.#ids.add(id);
    if (this.#ids.size > this.#dedupWindow) {
      const oldest = this.#ids.values().next().value;
      if (oldest !== undefined) this.#ids.delete(oldest);
    }
  }

  async consume(options: ConsumeOptions, handler: EventHandler): Promise<Subscription> {
    this.#assertOpen();
    const { durable } = options;
    // One live consumer per durable name keeps "one event at a time, in order" simple.
    if (this.#cursors.has(durable)) throw new Error(`MemoryBus: durable consumer "${durable}" is already consuming`);
    const cursor: Cursor = { stopped: false, idle: false, done: Promise.resolve(), serial: new Serial(), unlist: () => {} };
    this.#cursors.set(durable, cursor);
    cursor.unlist = this.#retries.live(durable, {
      redeliver: (event) =>
        cursor.serial.run(async () => {
          if (cursor.stopped) throw consumerNotRunning(durable);
          await handler(deepCopy(event));
        }),
    });
    cursor.done = this.#deliver(durable, eventMatcher(options), handler, cursor);
    return { stop: () => this.#stop(durable, cursor) };
  }

  async status(): Promise<EventBusStatus> {
    return { connected: !this.#closed };
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#cursors].map(([durable, cursor]) => this.#stop(durable, cursor)));
    await this.#journal?.flush();
  }

  async #deliver(durable: string, matches: (event: DomainEvent) => boolean, handler: EventHandler, cursor: Cursor): Promise<void> {
    // The first delivery comes after consume() has returned, as it does over the network.
    await Promise.resolve();
    /** The event being retried: its sequence, failed attempts and first attempt's time. */
    let failing: { seq: number; failures: number; firstAttemptAt: number } | undefined;
    while (!cursor.stopped) {
      const seq = Math.max(this.#positions.get(durable) ?? 0, this.#firstSeq);
      const event = this.#log[seq - this.#firstSeq];
      if (event === undefined) {
        cursor.idle = true;
        await this.#wait(cursor);
        cursor.idle = false;
        continue;
      }
      if (matches(event)) {
        if (failing?.seq !== seq) failing = { seq, failures: 0, firstAttemptAt: this.#retries.now() };
        try {
          await cursor.serial.run(() => handler(deepCopy(event)));
        } catch (error) {
          failing.failures += 1;
          const delayMs = await this.#afterFailure(durable, event, error, failing.failures, failing.firstAttemptAt);
          if (delayMs === undefined) {
            failing = undefined;
            this.#advance(durable, seq + 1);
          } else if (!cursor.stopped) {
            await this.#wait(cursor, delayMs);
          }
          continue;
        }
      }
      failing = undefined;
      this.#advance(durable, seq + 1);
    }
  }

  #advance(durable: string, next: number): void {
    this.#positions.set(durable, next);
    this.#journal?.moved(durable, next);
  }

  /** Files the event as a dead letter when the policy is spent (undefined: move on), or says how long to wait before the next attempt. */
  async #afterFailure(durable: string, event: DomainEvent, error: unknown, failures: number, firstAttemptAt: number): Promise<number | undefined> {
    const decision = this.#retries.afterFailure(failures, firstAttemptAt);
    const context = { err: error, durable, eventId: event.id, failures, delayMs: decision.delayMs };
    if (!decision.deadLetter) {
      if (decision.exhausted)
        this.#logger?.error(context, 'event handler keeps failing past the retry policy and no dead-letter store is configured; retrying');
      else this.#logger?.warn(context, 'event handler failed; retrying');
      return decision.delayMs;
    }
    try {
      await this.#retries.file({ durable, id: event.id, payload: eventPayload(event), error, attempts: failures, firstAttemptAt });
      return undefined;
    } catch (fileError) {
      // The event stays where it is until it is delivered or filed: nothing is dropped.
      this.#logger?.error({ ...context, fileError }, 'event handler failed past the retry policy and the dead letter could not be filed; retrying');
      return decision.delayMs;
    }
  }

  /** Waits for wake() or, when given, `ms` milliseconds, whichever comes first. */
  #wait(cursor: Cursor, ms?: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(finish, ms);
      timer?.unref();
      function finish(): void {
        clearTimeout(timer);
        cursor.wake = undefined;
        resolve();
      }
      cursor.wake = finish;
    });
  }

  async #stop(durable: string, cursor: Cursor): Promise<void> {
    cursor.stopped = true;
    cursor.unlist();
    cursor.wake?.();
    // Lets a handler already running (a retry of a dead letter included) finish, so no delivery outlives stop().
    await cursor.done;
    await cursor.serial.idle();
    if (this.#cursors.get(durable) === cursor) this.#cursors.delete(durable);
    await this.#journal?.flush();
  }

  /** Drops old events in chunks of a tenth of the limit, so publishing stays cheap once the log is full. */
  #trim(): void {
    if (this.#log.length <= this.#maxEvents) return;
    const drop = Math.max(this.#log.length - this.#maxEvents, Math.ceil(this.#maxEvents / 10));
    this.#log.splice(0, drop);
    this.#firstSeq += drop;
    this.#journal
      ?.trim(this.#firstSeq)
      .catch((error: unknown) => this.#logger?.warn({ err: error }, 'event journal could not drop old events; it will on the next trim'));
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error('MemoryBus is closed');
  }
}
