/**
 * The actor system of one node: the registry of kinds, the live activations (a
 * bounded cache; idle actors leave memory), and the loops around them (timers,
 * outbox). It asks actors through its transport and serves what the transport
 * routes to this node.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { assertAddress, formatAddress, shardOf, type ActorAddress } from '../address.js';
import type { Clock } from '../clock.js';
import { AskTimeoutError, ShuttingDownError, UnknownKindError } from '../errors.js';
import type { EventBus } from '../events/event-bus.js';
import type { Collection, Filter, Store } from '../store/store.js';
import { TransportUnavailableError, type MessageHost, type Transport } from '../transport/transport.js';
import { actorCollectionSpec, type ActorDocument } from './actor-document.js';
import type { ActorKind } from './actor-kind.js';
import { Activation } from './activation.js';
import type { ActorEvent, ActorMessage, AskOptions } from './messages.js';
import { OutboxRunner } from './outbox-runner.js';
import { TimerScheduler } from './timer-scheduler.js';

export interface ActorSystemOptions {
  store: Store;
  transport: Transport;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  /** Fixed for the life of a cluster: documents record the shard they hash to. */
  shardCount: number;
  /** Live activations kept in memory; the least recently used idle ones leave first. */
  cacheSize: number;
  askTimeoutMs: number;
  /** Longest single delivery attempt before the ask retries with the same message id. */
  attemptTimeoutMs: number;
  timerPollMs: number;
}

export class ActorSystem implements MessageHost {
  readonly #kinds = new Map<string, ActorKind>();
  readonly #collections = new Map<string, Collection<ActorDocument>>();
  /** Insertion order is recency order: a touched activation is moved to the end. */
  readonly #live = new Map<string, Activation>();
  readonly #timers: TimerScheduler;
  readonly #outbox: OutboxRunner;
  #state: 'new' | 'running' | 'draining' | 'stopped' = 'new';

  constructor(private readonly options: ActorSystemOptions) {
    this.#outbox = new OutboxRunner({
      bus: options.bus,
      clock: options.clock,
      logger: options.logger,
      ask: (address, event, askOptions) => this.ask(address, event, askOptions),
    });
    this.#timers = new TimerScheduler({
      clock: options.clock,
      logger: options.logger,
      pollMs: options.timerPollMs,
      collections: () => this.#collections.values(),
      shardFilter: () => this.#shardFilter(),
      deliver: (address, message) => this.receive(address, message),
    });
  }

  get clock(): Clock {
    return this.options.clock;
  }

  get transport(): Transport {
    return this.options.transport;
  }

  register(kind: ActorKind): this {
    if (this.#state !== 'new') throw new Error(`register ${kind.name} before the system starts`);
    if (this.#kinds.has(kind.name)) throw new Error(`actor kind ${kind.name} is registered twice`);
    assertAddress({ kind: kind.name, id: 'x' });
    this.#kinds.set(kind.name, kind);
    return this;
  }

  async start(): Promise<void> {
    for (const kind of this.#kinds.values()) {
      this.#collections.set(kind.name, await this.options.store.collection<ActorDocument>(actorCollectionSpec(kind.name, kind.viewIndexes)));
    }
    this.#state = 'running';
    this.#timers.start();
    await this.options.transport.start(this);
    if (this.options.transport.ownedShards() === 'all') await this.#recover();
  }

  /** The documents of one kind, for list and read endpoints that query views. */
  documents(kind: string): Collection<ActorDocument> {
    const collection = this.#collections.get(kind);
    if (!collection) throw new UnknownKindError(kind);
    return collection;
  }

  /**
   * Sends an event to an actor and resolves with its reply. Attempts that time out,
   * or find no node serving the shard, are retried with the same message id until
   * the deadline; the actor applies the message once whatever happens.
   */
  async ask(address: ActorAddress, event: ActorEvent, options: AskOptions = {}): Promise<unknown> {
    assertAddress(address);
    if (!this.#kinds.has(address.kind)) throw new UnknownKindError(address.kind);
    if (this.#state === 'stopped') throw new ShuttingDownError();
    const message: ActorMessage = { id: options.messageId ?? randomUUID(), event };
    const timeoutMs = options.timeoutMs ?? this.options.askTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    for (let attempt = 0; ; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new AskTimeoutError(address.kind, address.id, timeoutMs);
      try {
        return await this.options.transport.send(address, message, Math.min(remaining, this.options.attemptTimeoutMs));
      } catch (error) {
        if (!(error instanceof TransportUnavailableError)) throw error;
        await delay(Math.min(25 * 2 ** attempt, 500, Math.max(0, deadline - Date.now())));
      }
    }
  }

  /** Runs a message on this node: the transport calls this for the shards it serves. */
  async receive(address: ActorAddress, message: ActorMessage): Promise<unknown> {
    if (this.#state !== 'running' && this.#state !== 'draining') throw new ShuttingDownError();
    return this.#activate(address).deliver(message);
  }

  shardsChanged(acquired: number[], lost: number[]): void {
    if (lost.length > 0) {
      const gone = new Set(lost);
      for (const [key, activation] of this.#live) {
        if (gone.has(shardOf(activation.address.id, this.options.shardCount))) this.#live.delete(key);
      }
    }
    if (acquired.length > 0 && this.#state === 'running') {
      void this.#recover(acquired).catch((error: unknown) => this.options.logger.error({ err: error }, 'recovery of acquired shards failed'));
    }
  }

  /** Delivers every timer due by the clock now; the test clock's advance() does this too. */
  runDueTimers(): Promise<void> {
    return this.#timers.runDue();
  }

  /** Resolves once every effect queued so far has run (or is waiting to retry after a failure). */
  effectsIdle(): Promise<void> {
    return this.#outbox.idle();
  }

  stats(): { liveActors: number; kinds: string[] } {
    return { liveActors: this.#live.size, kinds: [...this.#kinds.keys()] };
  }

  /**
   * Graceful stop. The caller has already stopped taking requests; messages routed to
   * this node are still served while it holds its shards. Timers stop, the turns in
   * flight finish, effects already running finish (no new retries), and only then
   * are the shards handed back.
   */
  async drain(): Promise<void> {
    if (this.#state !== 'running') return;
    this.#state = 'draining';
    await this.#timers.stop();
    await this.#settled();
    await this.#outbox.stop({ wait: true });
    await this.#settled();
    await this.options.transport.stop();
    this.#live.clear();
    this.#state = 'stopped';
  }

  /** Abrupt stop for tests of failure: loops end, nothing is handed back. */
  async halt(): Promise<void> {
    this.#state = 'stopped';
    await Promise.all([this.#timers.stop(), this.#outbox.stop({ wait: false })]);
    this.#live.clear();
  }

  async #settled(): Promise<void> {
    await Promise.all([...this.#live.values()].map((activation) => activation.mailbox.settled()));
  }

  #activate(address: ActorAddress): Activation {
    const key = formatAddress(address);
    const existing = this.#live.get(key);
    if (existing) {
      this.#live.delete(key);
      this.#live.set(key, existing);
      return existing;
    }
    const kind = this.#kinds.get(address.kind);
    if (!kind) throw new UnknownKindError(address.kind);
    assertAddress(address);
    const activation = new Activation(kind, { kind: address.kind, id: address.id }, {
      clock: this.options.clock,
      collection: this.documents(address.kind),
      shard: shardOf(address.id, this.options.shardCount),
      documentChanged: (changed, doc) => {
        if (doc.outboxPending) this.#outbox.schedule(changed);
        if (doc.nextTimerAt !== null) this.#timers.noteDue(doc.nextTimerAt);
      },
    });
    this.#live.set(key, activation);
    this.#evict();
    return activation;
  }

  #evict(): void {
    let excess = this.#live.size - this.options.cacheSize;
    if (excess <= 0) return;
    for (const [key, activation] of this.#live) {
      if (excess <= 0) break;
      if (activation.mailbox.idle && !this.#outbox.isDraining(activation)) {
        this.#live.delete(key);
        excess--;
      }
    }
  }

  #shardFilter(shards?: number[]): Filter {
    if (shards) return { shard: { $in: shards } };
    const owned = this.options.transport.ownedShards();
    return owned === 'all' ? {} : { shard: { $in: [...owned] } };
  }

  /** Picks up effects a previous owner saved but never ran, and timers that fell due meanwhile. */
  async #recover(shards?: number[]): Promise<void> {
    for (const [kind, collection] of this.#collections) {
      const pending = await collection.find({ ...this.#shardFilter(shards), outboxPending: true }, { projection: { _id: 1 } });
      for (const doc of pending) await this.#activate({ kind, id: doc._id }).load();
    }
    await this.#timers.runDue();
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
