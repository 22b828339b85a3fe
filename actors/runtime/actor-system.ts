/**
 * The actor system of one node: the registry of kinds, the live activations (a
 * bounded cache; idle actors leave memory), and the loops around them (timers, the
 * outbox, the history writer, the sweeper). It asks actors through its transport and serves what the
 * transport routes to this node, only while it holds a valid lease on their shard.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { EventObject } from 'xstate';
import { assertAddress, formatAddress, shardOf, type ActorAddress } from '../address.js';
import type { Clock } from '../clock.js';
import { decode, encode } from '../codec.js';
import { AskTimeoutError, CommandRejectedError, ShardNotServedError, ShuttingDownError, UnknownActorError, UnknownKindError } from '../errors.js';
import type { EventBus } from '../events/event-bus.js';
import { noMetrics, type NodeMetrics } from '../metrics/node-metrics.js';
import type { AskOutcome } from '../metrics/runtime-metrics.js';
import type { Collection, Filter, Store } from '../store/store.js';
import type { MessageHost, Transport } from '../transport/transport.js';
import { askRetries } from '../errors/error-table.js';
import { firesAt, outboxFields, actorCollectionSpec, nextTimerAt, type ActorDocument, type OutboxEntry, type TimerRow } from './actor-document.js';
import type { ActorKind, AnyActorKind, CommandOf, ReplyOf, ViewOf } from './actor-kind.js';
import { viewCollection, type ViewCollection } from './view-collection.js';
import { Activation, type Fence } from './activation.js';
import { DeadLetterStore, deadLetterError, type DeadLetter } from './dead-letters.js';
import { MessageLog } from './message-log.js';
import { REARM_TIMER_EVENT, REQUEUE_EFFECT_EVENT, isRuntimeMaintenance, type ActorEvent, type ActorMessage, type AskOptions } from './messages.js';
import { OutboxRunner } from './outbox-runner.js';
import { DEFAULT_RETRY_POLICY, afterFailure, type RetryPolicy } from './retry-policy.js';
import { Singletons, type SingletonRole } from './singletons.js';
import { TEST_CLOCK_KIND, clockTimeOf, type AttachedTimer, type ClockTimers } from './test-clock-time.js';
import { TimerScheduler } from './timer-scheduler.js';
import { HistoryWriter } from './history-writer.js';
import { TurnHistory } from './turn-history.js';

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
  /** How often the sweeper looks for due effects on this node's shards (default 1 s). */
  sweepIntervalMs?: number;
  /**
   * How long the removal of a done effect of a kind's own waits to ride on its actor's
   * next write before a grouped write of its own saves it (default 0: the next pass). What waits is
   * also what a crash runs again (outbox-runner.ts).
   */
  doneSaveDelayMs?: number;
  /**
   * The same for a domain event or a tell (default 10 s, inside JetStream's default
   * duplicate window): run again, it repeats nothing, so it waits long for a write to
   * ride on, and is saved sooner only before its actor leaves memory (#evict).
   */
  harmlessDoneSaveDelayMs?: number;
  /** How long applied message ids and their replies are remembered (default 24 hours). */
  messageRetentionMs?: number;
  /** How long the record of each turn is kept in the history collection (default 90 days). */
  historyRetentionMs?: number;
  /** Effects and timers that keep failing stop after this policy and become dead letters. */
  retryPolicy?: RetryPolicy;
  /** Longest a handover of shards waits for the work running on them (default 1 s; half a lease's TTL suits). */
  handoverWaitMs?: number;
  /** Shared with the event bus when a node wires both; opened on the store otherwise. */
  deadLetters?: DeadLetterStore;
  /** What the runtime reports, and what the node's other sides report through `metrics`; nothing unless given. */
  metrics?: NodeMetrics;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const HISTORY_RETENTION_MS = 90 * DAY_MS;
/** Ids and history rows past their retention are purged at most this often: each purge scans an index by time. */
const PURGE_EVERY_MS = 60_000;
/** Pending outboxes picked up per kind and sweep. */
const SWEEP_BATCH = 1000;
/** Longest a handover waits by default for the work running on the shards it gives back. */
const HANDOVER_WAIT_MS = 1000;
/**
 * A kind's own effect reports inside its run (a webhook's attempt asks its delivery to
 * record the answer), so no turn comes to carry its removal: waiting 50 ms for one only
 * widened the window in which a crash repeats it outside (a webhook answered 2xx sent
 * again: test/chaos/webhook-kill.chaos.ts). The next pass saves it, grouped with the
 * others done meanwhile.
 */
const DONE_SAVE_DELAY_MS = 0;
/**
 * Long enough for an actor's next turn to carry most removals, well inside the bus's
 * duplicate window (JetStream's is 2 minutes by default), and short enough that the stored
 * outboxes of a quiet system are empty seconds after its load stops (the transfers chaos
 * test waits 45 s for that; 60 s failed it).
 */
const HARMLESS_DONE_SAVE_DELAY_MS = 10_000;
/** How often a wait for the effects of the actors on a test clock looks again. */
const SETTLE_POLL_MS = 10;
/** Activations one eviction looks at, at most (#evict). */
const EVICTION_LOOKS = 32;

export class ActorSystem implements MessageHost, ClockTimers {
  readonly #kinds = new Map<string, ActorKind>();
  readonly #collections = new Map<string, Collection<ActorDocument>>();
  /** Insertion order is recency order: a touched activation is moved to the end. */
  readonly #live = new Map<string, Activation>();
  readonly #timers: TimerScheduler;
  readonly #outbox: OutboxRunner;
  readonly #historyWriter: HistoryWriter;
  readonly #singletons: Singletons;
  readonly #metrics: NodeMetrics;
  readonly #policy: RetryPolicy;
  #messages!: MessageLog;
  #deadLetters!: DeadLetterStore;
  #history!: TurnHistory;
  #sweepTimer: NodeJS.Timeout | undefined;
  #sweeping: Promise<void> | undefined;
  #unsubscribeClock: (() => void) | undefined;
  #purgedAt = -Infinity;
  /** Shards being handed over: nothing new starts on them. */
  readonly #releasing = new Set<number>();
  /** Kind -> who hears of every write of its documents on this node. */
  readonly #writeListeners = new Map<string, Set<(id: string) => void>>();
  #state: 'new' | 'running' | 'draining' | 'stopped' = 'new';

  constructor(private readonly options: ActorSystemOptions) {
    this.#metrics = options.metrics ?? noMetrics;
    this.#policy = options.retryPolicy ?? DEFAULT_RETRY_POLICY;
    this.#outbox = new OutboxRunner({
      bus: options.bus,
      clock: options.clock,
      logger: options.logger,
      metrics: this.#metrics,
      policy: this.#policy,
      saveDelayMs: options.doneSaveDelayMs ?? DONE_SAVE_DELAY_MS,
      harmlessSaveDelayMs: options.harmlessDoneSaveDelayMs ?? HARMLESS_DONE_SAVE_DELAY_MS,
      deadLetters: () => this.#deadLetters,
      ask: (address, event, askOptions) => this.#ask(address, event, askOptions),
      askOwn: (activation, event, askOptions) => this.#askOwn(activation, event, askOptions),
      fence: (activation) => this.#fence(shardOf(activation.address.id, options.shardCount), { starting: true }),
      clockTime: (clockId) => this.clockTime(clockId),
    });
    this.#historyWriter = new HistoryWriter(() => this.#history, options.logger);
    this.#timers = new TimerScheduler({
      clock: options.clock,
      logger: options.logger,
      metrics: this.#metrics,
      pollMs: options.timerPollMs,
      collections: () => this.#collections.values(),
      shardFilter: () => this.#shardFilter(),
      deliver: (address, message) => this.receive(address, message),
      failed: (address, timer, error) => this.#timerFailed(address, timer, error),
    });
    this.#singletons = new Singletons(options.logger, (shard) => this.#holds(shard), options.shardCount);
  }

  get clock(): Clock {
    return this.options.clock;
  }

  get transport(): Transport {
    return this.options.transport;
  }

  /** The node's metrics, for its sides that hold the system (the gateway, webhooks, the relayer) to report through. */
  get metrics(): NodeMetrics {
    return this.#metrics;
  }

  get deadLetters(): DeadLetterStore {
    return this.#deadLetters;
  }

  /** The record of every turn, for the inspector and time travel. */
  get history(): TurnHistory {
    return this.#history;
  }

  /** The registered kind named `name`. */
  kind(name: string): ActorKind {
    const kind = this.#kinds.get(name);
    if (!kind) throw new UnknownKindError(name);
    return kind;
  }

  register(kind: AnyActorKind): this {
    if (this.#state !== 'new') throw new Error(`register ${kind.name} before the system starts`);
    if (this.#kinds.has(kind.name)) throw new Error(`actor kind ${kind.name} is registered twice`);
    assertAddress({ kind: kind.name, id: 'x' });
    this.#kinds.set(kind.name, kind);
    return this;
  }

  /**
   * Runs `role` on exactly one node of the cluster: the node holding the lease on the
   * shard `name` hashes to. It starts when that lease is taken and stops when it is lost.
   */
  singleton(name: string, role: SingletonRole): { release(): Promise<void> } {
    this.#singletons.add(name, role);
    if (this.#state === 'running') this.#singletons.changed();
    return { release: () => this.#singletons.remove(name) };
  }

  async start(): Promise<void> {
    const { store, clock, logger } = this.options;
    this.#messages = await MessageLog.open(store, this.options.messageRetentionMs ?? DAY_MS);
    this.#history = await TurnHistory.open(store, this.options.historyRetentionMs ?? HISTORY_RETENTION_MS);
    this.#deadLetters = this.options.deadLetters ?? (await DeadLetterStore.open(store, clock, logger));
    this.#deadLetters.onRetry('effect', (letter) => this.#requeue(letter, decode<OutboxEntry>(letter.payload)));
    this.#deadLetters.onRetry('refusal', (letter) => this.#requeue(letter, decode<{ entry: OutboxEntry }>(letter.payload).entry));
    this.#deadLetters.onRetry('timer', (letter) => this.#rearm(letter));
    for (const kind of this.#kinds.values()) {
      this.#collections.set(kind.name, await store.collection<ActorDocument>(actorCollectionSpec(kind.name, kind.viewIndexes)));
    }
    this.#state = 'running';
    this.#timers.start();
    this.#sweepTimer = setInterval(() => void this.sweep(), this.options.sweepIntervalMs ?? 1000);
    this.#sweepTimer.unref();
    this.#unsubscribeClock = clock.onAdvance(() => this.sweep());
    this.#metrics.observe({
      pendingOutbox: () => this.#countPending(),
      deadLetters: () => this.#deadLetters.count('OPEN'),
      mailboxDepth: async () => this.#mailboxDepths(),
      timers: () => this.#countTimers(),
    });
    await this.options.transport.start(this);
    if (this.servesEveryShard) {
      await this.#recover();
      this.#singletons.changed();
    }
  }

  /**
   * Whether this node serves every shard (one node on the embedded transport): then no
   * other node writes actor documents, and `onWrite` hears of every change to them.
   */
  get servesEveryShard(): boolean {
    return this.options.transport.ownedShards() === 'all';
  }

  /**
   * Calls `listener` with the actor's id after every write this node attempts on a
   * document of `kind`, whether or not it reported success (a failed write may still
   * have committed), before the turn answers. Returns what stops it.
   */
  onWrite(kind: string, listener: (id: string) => void): () => void {
    let listeners = this.#writeListeners.get(kind);
    if (!listeners) this.#writeListeners.set(kind, (listeners = new Set()));
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }

  /** The documents of one kind, for list and read endpoints that query views. */
  documents(kind: string): Collection<ActorDocument> {
    const collection = this.#collections.get(kind);
    if (!collection) throw new UnknownKindError(kind);
    return collection;
  }

  /** The documents of one kind as its read and list endpoints query them: typed views, checked paths. */
  views<K extends AnyActorKind>(kind: K): ViewCollection<ViewOf<K>> {
    return viewCollection(this.documents(kind.name));
  }

  /**
   * Sends `command` to the actor `id` of `kind` and resolves with the reply the kind
   * declares. Attempts that time out, or find no node serving the shard, are retried with
   * the same message id until the deadline; the actor applies the message once whatever happens.
   */
  ask<K extends AnyActorKind>(kind: K, id: string, command: CommandOf<K>, options?: AskOptions): Promise<ReplyOf<K>> {
    // The one place a reply off the transport takes its kind's type: the kind's own `reply` made it.
    return this.#ask<ReplyOf<K>>({ kind: kind.name, id }, command, options);
  }

  /** `ask` for an actor whose kind is known only at run time: one a message or an operator names, an effect's own. */
  askAt<TEvent extends EventObject>(address: ActorAddress, event: TEvent, options?: AskOptions): Promise<unknown> {
    return this.#ask(address, event, options);
  }

  async #ask<TReply = unknown>(address: ActorAddress, event: EventObject, options: AskOptions = {}): Promise<TReply> {
    assertAddress(address);
    if (!this.#kinds.has(address.kind)) throw new UnknownKindError(address.kind);
    if (this.#state === 'stopped') throw new ShuttingDownError();
    const message: ActorMessage = { id: options.messageId ?? randomUUID(), event };
    const timeoutMs = options.timeoutMs ?? this.options.askTimeoutMs;
    const started = performance.now();
    const deadline = Date.now() + timeoutMs;
    let outcome: AskOutcome = 'error';
    let lastFailure: unknown;
    try {
      for (let attempt = 0; ; attempt++) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) {
          outcome = 'timeout';
          throw new AskTimeoutError(address.kind, address.id, timeoutMs, lastFailure === undefined ? undefined : { cause: lastFailure });
        }
        try {
          const reply = await this.options.transport.send(address, message, Math.min(remaining, this.options.attemptTimeoutMs));
          outcome = 'ok';
          return reply as TReply;
        } catch (error) {
          if (error instanceof CommandRejectedError) outcome = 'rejected';
          if (error instanceof UnknownActorError) outcome = 'unknown_actor';
          if (!askRetries(error)) throw error;
          lastFailure = error;
          await delay(Math.min(25 * 2 ** attempt, 500, Math.max(0, deadline - Date.now())));
        }
      }
    } finally {
      this.#metrics.ask(address.kind, outcome, (performance.now() - started) / 1000);
    }
  }

  /** An effect's message to its own actor (outbox-runner.ts, askOwn): here while this node holds the shard and the actor, else as any ask. */
  #askOwn(activation: Activation, event: EventObject, options: AskOptions = {}): Promise<unknown> {
    const { address } = activation;
    const here = this.#live.get(formatAddress(address)) === activation && this.#holds(shardOf(address.id, this.options.shardCount));
    if (!here || this.#state === 'stopped') return this.#ask(address, event, options);
    return activation.deliver({ id: options.messageId ?? randomUUID(), event });
  }

  /** Runs a message on this node: the transport calls this for the shards it serves. */
  async receive(address: ActorAddress, message: ActorMessage): Promise<unknown> {
    if (this.#state !== 'running' && this.#state !== 'draining') throw new ShuttingDownError();
    this.#fence(shardOf(address.id, this.options.shardCount), { starting: true });
    const activation = this.#activate(address);
    if (isRuntimeMaintenance(message.event)) return this.#maintain(activation, message.event as ActorEvent);
    return activation.deliver(message);
  }

  /**
   * A clean handover: the node stops taking messages for `shards`, lets the turns and
   * effects already running on them finish (and their writes land, while the leases
   * are still renewed), for at most `handoverWaitMs`, and only then are they given back.
   */
  async releasing(shards: number[]): Promise<void> {
    const leaving = new Set(shards);
    for (const shard of shards) this.#releasing.add(shard);
    const running = [...this.#live.values()]
      .filter((activation) => leaving.has(shardOf(activation.address.id, this.options.shardCount)))
      .map(async (activation) => {
        await Promise.all([activation.mailbox.settled(), this.#outbox.drained(activation)]);
        await this.#outbox.saveDone([activation]);
      });
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, this.options.handoverWaitMs ?? HANDOVER_WAIT_MS)));
    await Promise.race([Promise.all(running), bound]);
    clearTimeout(timer);
  }

  shardsChanged(acquired: number[], lost: number[]): void {
    for (const shard of [...acquired, ...lost]) this.#releasing.delete(shard);
    if (lost.length > 0) {
      const gone = new Set(lost);
      for (const [key, activation] of this.#live) {
        if (!gone.has(shardOf(activation.address.id, this.options.shardCount))) continue;
        this.#live.delete(key);
        activation.retire();
        this.#outbox.forget(activation);
      }
    }
    if (acquired.length > 0 && this.#state === 'running') {
      void this.#recover(acquired).catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'recovery of acquired shards failed; the sweeper retries'),
      );
    }
    if (this.#state === 'running') this.#singletons.changed();
  }

  /** The time of a test clock: what the turns of the actors attached to it run at. */
  async clockTime(clockId: string): Promise<number> {
    const clock = await this.#collections.get(TEST_CLOCK_KIND)?.findOne({ _id: clockId }, { projection: { view: 1 } });
    if (!clock) throw new UnknownActorError(TEST_CLOCK_KIND, clockId);
    return clockTimeOf(clock.view);
  }

  /**
   * The timers of every actor attached to `clockId` due by `until`, earliest first, on
   * any shard: an advance delivers them through `ask`, so each reaches the node serving it.
   */
  async dueOnClock(clockId: string, until: number): Promise<AttachedTimer[]> {
    const due: AttachedTimer[] = [];
    for (const [kind, collection] of this.#collections) {
      const docs = await collection.find({ clockId, nextTimerAt: { $ne: null, $lte: until } }, { projection: { _id: 1, timers: 1 } });
      for (const doc of docs) for (const timer of doc.timers) if (firesAt(timer) <= until) due.push({ address: { kind, id: doc._id }, timer });
    }
    return due.sort((a, b) => firesAt(a.timer) - firesAt(b.timer));
  }

  /**
   * Waits until no actor attached to `clockId` has an effect to run: an advance lets what
   * the firings at one due time queued (reports, tells, events, a webhook's attempt) run at
   * that time before it moves the clock on, so a timer a report arms is found by its next
   * look. An effect waiting to retry after a failure is not waited for: its retry runs on
   * the node's time. Effects running on other nodes count through the store, where their
   * removal lands a grouped save later. Gives up (false) after `limitMs` of real time.
   */
  async effectsSettledOnClock(clockId: string, limitMs: number): Promise<boolean> {
    // Real time, not the node's clock: the wait is for work running now, and a test's node clock stands still.
    const deadline = performance.now() + limitMs;
    for (;;) {
      await this.#outbox.saveDone();
      if (!(await this.#effectsToRunOnClock(clockId))) return true;
      if (performance.now() >= deadline) return false;
      await delay(SETTLE_POLL_MS);
    }
  }

  /** Whether an actor on the clock has an effect to run; starts the drain of those on this node's shards that no drain runs. */
  async #effectsToRunOnClock(clockId: string): Promise<boolean> {
    let pending = false;
    for (const [kind, collection] of this.#collections) {
      const docs = await collection.find({ outboxPending: true, clockId }, { projection: { _id: 1, outbox: 1 } });
      for (const doc of docs) {
        const head = doc.outbox[0];
        if (!head || head.nextAttemptAt !== undefined) continue;
        pending = true;
        // One saved before a restart and dated on a clock ahead of the node is not due for the sweeper yet: run it now.
        if (!this.#holds(shardOf(doc._id, this.options.shardCount))) continue;
        const activation = this.#activate({ kind, id: doc._id });
        if (this.#outbox.isDraining(activation)) continue;
        await activation.load();
        this.#outbox.schedule(activation);
      }
    }
    return pending;
  }

  /** Delivers every timer due by the clock now; the test clock's advance() does this too. */
  runDueTimers(): Promise<void> {
    return this.#timers.runDue();
  }

  /**
   * Finds due effects of every actor on this node's shards, in memory or not, and runs
   * them (an outbox in memory whose effects have all run waits for its actor's next
   * write, and costs the sweep a look, not a write); purges remembered ids and history rows
   * past their retention. Runs on an interval and whenever the test clock moves; concurrent
   * calls share one sweep.
   */
  sweep(): Promise<void> {
    if (this.#state !== 'running') return Promise.resolve();
    this.#sweeping ??= this.#sweep()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'sweep failed; trying again on the next one'))
      .finally(() => (this.#sweeping = undefined));
    return this.#sweeping;
  }

  /**
   * Resolves once every effect queued so far has run (or is waiting to retry after a
   * failure) and its removal from the outbox is saved, and the history records of the
   * turns so far are inserted (or their insert failed).
   */
  async effectsIdle(): Promise<void> {
    await this.#outbox.idle();
    await this.#historyWriter.idle();
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
    this.#stopLoops();
    await this.#singletons.stopAll();
    await this.#timers.stop();
    await this.#settled();
    await this.#outbox.stop({ wait: true });
    await this.#historyWriter.stop({ wait: true });
    await this.#sweeping;
    await this.#settled();
    await this.options.transport.stop();
    this.#live.clear();
    this.#state = 'stopped';
  }

  /** Abrupt stop for tests of failure: loops end, nothing is handed back. */
  async halt(): Promise<void> {
    this.#state = 'stopped';
    this.#stopLoops();
    await Promise.all([this.#singletons.stopAll(), this.#timers.stop(), this.#outbox.stop({ wait: false }), this.#historyWriter.stop({ wait: false })]);
    this.#live.clear();
  }

  #stopLoops(): void {
    clearInterval(this.#sweepTimer);
    this.#unsubscribeClock?.();
  }

  async #settled(): Promise<void> {
    await Promise.all([...this.#live.values()].map((activation) => activation.mailbox.settled()));
  }

  /**
   * The lease this node holds on `shard`, or ShardNotServedError. Work `starting` is
   * refused on a shard being handed over; the writes of work already running are not.
   */
  #fence(shard: number, { starting = false } = {}): Fence {
    const fence = this.options.transport.fence(shard);
    if (!fence || (starting && this.#releasing.has(shard))) throw new ShardNotServedError(shard);
    return fence;
  }

  #holds(shard: number): boolean {
    return this.options.transport.fence(shard) !== null;
  }

  #activate(address: ActorAddress): Activation {
    const key = formatAddress(address);
    const existing = this.#live.get(key);
    if (existing) {
      this.#live.delete(key);
      this.#live.set(key, existing);
      return existing;
    }
    const kind = this.kind(address.kind);
    assertAddress(address);
    const shard = shardOf(address.id, this.options.shardCount);
    const activation = new Activation(
      kind,
      { kind: address.kind, id: address.id },
      {
        clock: this.options.clock,
        collection: this.documents(address.kind),
        shard,
        messages: this.#messages,
        metrics: this.#metrics,
        fence: () => this.#fence(shard),
        clockTime: (clockId) => this.clockTime(clockId),
        documentChanged: (changed, doc) => {
          if (doc.outboxPending) this.#outbox.schedule(changed);
          if (doc.history?.length) this.#historyWriter.schedule(changed);
          // An attached actor's timers are counted on its test clock: only an advance fires them.
          if (doc.nextTimerAt !== null && !doc.clockId) this.#timers.noteDue(doc.nextTimerAt);
        },
        written: (changed) => {
          for (const listener of this.#writeListeners.get(changed.address.kind) ?? []) listener(changed.address.id);
        },
      },
    );
    this.#live.set(key, activation);
    this.#evict(activation);
    return activation;
  }

  /**
   * Idle activations leave, oldest first; never `arriving`, whose caller is about to use
   * it (and may leave it holding done effects). A busy one goes behind the others, and
   * one eviction looks at EVICTION_LOOKS at most: in a burst of creates the oldest
   * thousands all hold done effects until their grouped save, and walking past them on
   * every activation made each new actor cost the whole cache. The cache may stay over
   * its size until they are idle; each activation can then take back that many.
   */
  #evict(arriving: Activation): void {
    let excess = this.#live.size - this.options.cacheSize;
    let looks = 0;
    for (const [key, activation] of this.#live) {
      if (excess <= 0 || looks++ >= EVICTION_LOOKS || activation === arriving) break;
      this.#live.delete(key);
      if (activation.mailbox.idle && !this.#outbox.isBusy(activation)) {
        activation.retire();
        excess--;
      } else {
        // Its effects that ran wait for its next write; leaving memory would forget them and run them again on its next
        // load, and every sweep would find them stored. This is the one write saving them needs: it may leave after it.
        if (activation.mailbox.idle && activation.hasUnsavedDone && !this.#outbox.isDraining(activation)) void this.#outbox.saveDone([activation]);
        this.#live.set(key, activation);
      }
    }
  }

  #shardFilter(shards?: number[]): Filter {
    if (shards) return { shard: { $in: shards } };
    const owned = this.options.transport.ownedShards();
    return owned === 'all' ? {} : { shard: { $in: [...owned] } };
  }

  async #sweep(): Promise<void> {
    const now = this.options.clock.now();
    await this.#runDueEffects();
    if (now - this.#purgedAt >= PURGE_EVERY_MS) {
      this.#purgedAt = now;
      await this.#messages.purge(now);
      await this.#history.purge(now);
    }
  }

  /** Drains the outboxes due now on `shards` (by default every shard this node holds), in memory or not. */
  async #runDueEffects(shards?: number[]): Promise<void> {
    const now = this.options.clock.now();
    for (const [kind, collection] of this.#collections) {
      // Page by page: the outboxes in memory whose effects have all run fill the first pages until their actors write again.
      for (let skip = 0; ; skip += SWEEP_BATCH) {
        const due = await collection.find(
          { ...this.#shardFilter(shards), outboxPending: true, outboxDueAt: { $lte: now } },
          { projection: { _id: 1 }, skip, limit: SWEEP_BATCH },
        );
        for (const doc of due) {
          const live = this.#live.get(formatAddress({ kind, id: doc._id }));
          if (live?.doc && !live.nextEffect()) continue;
          const activation = this.#activate({ kind, id: doc._id });
          if (this.#outbox.isDraining(activation)) continue;
          await activation.load();
          this.#outbox.schedule(activation);
        }
        if (due.length < SWEEP_BATCH) break;
      }
    }
  }

  /** Picks up effects a previous owner saved but never ran, and timers that fell due meanwhile. */
  async #recover(shards?: number[]): Promise<void> {
    await this.#runDueEffects(shards);
    await this.#timers.runDue();
  }

  /** Stored outboxes with an effect still to run: those in memory whose effects have all run wait for a write, and do not count. */
  async #countPending(): Promise<number> {
    let count = 0;
    for (const collection of this.#collections.values()) count += await collection.count({ ...this.#shardFilter(), outboxPending: true });
    for (const activation of this.#live.values()) if (activation.doc?.outboxPending && !activation.nextEffect()) count--;
    return Math.max(0, count);
  }

  /** Every registered kind, at zero when none of its actors is live, so a kind's series exists from the start. */
  #mailboxDepths(): Record<string, number> {
    const depths: Record<string, number> = {};
    for (const kind of this.#kinds.keys()) depths[kind] = 0;
    for (const activation of this.#live.values()) depths[activation.address.kind] = (depths[activation.address.kind] ?? 0) + activation.mailbox.depth;
    return depths;
  }

  /** Timers of actors on a test clock fall due on that clock, not this one, and are left out as the scheduler leaves them. */
  async #countTimers(): Promise<{ armed: number; due: number }> {
    const now = this.options.clock.now();
    let armed = 0;
    let due = 0;
    for (const collection of this.#collections.values()) {
      const filter = { ...this.#shardFilter(), clockId: null };
      armed += await collection.count({ ...filter, nextTimerAt: { $ne: null } });
      due += await collection.count({ ...filter, nextTimerAt: { $ne: null, $lte: now } });
    }
    return { armed, due };
  }

  /** A timer whose delivery failed is tried again after a backoff, or filed as a dead letter past the policy. */
  async #timerFailed(address: ActorAddress, timer: TimerRow, error: unknown): Promise<void> {
    const attempts = (timer.attempts ?? 0) + 1;
    const now = this.options.clock.now();
    const decision = afterFailure(this.#policy, attempts, timer.dueAt, now);
    if (!decision.retry) {
      await this.#deadLetters.add({
        key: `timer:${formatAddress(address)}:${timer.id}@${timer.dueAt}`,
        source: 'timer',
        actor: address,
        consumer: null,
        payload: encode(timer),
        error: deadLetterError(error),
        attempts,
        firstAttemptAt: timer.dueAt,
      });
    }
    await this.#activate(address).rewrite((doc) => {
      const row = doc.timers.find((candidate) => candidate.id === timer.id && candidate.dueAt === timer.dueAt);
      if (!row) return null;
      const timers = decision.retry
        ? doc.timers.map((candidate) => (candidate === row ? { ...row, attempts, retryAt: decision.at } : candidate))
        : doc.timers.filter((candidate) => candidate !== row);
      return { ...doc, timers, nextTimerAt: nextTimerAt(timers) };
    });
  }

  /** Puts a dead letter's effect back at the end of its actor's outbox, through the node that holds the actor. */
  async #requeue(letter: DeadLetter, entry: OutboxEntry): Promise<void> {
    await this.askAt(letter.actor!, { type: REQUEUE_EFFECT_EVENT, entry: encode(entry) }, { messageId: `${letter._id}:${letter.updatedAt}` });
  }

  async #rearm(letter: DeadLetter): Promise<void> {
    await this.askAt(letter.actor!, { type: REARM_TIMER_EVENT, timer: letter.payload }, { messageId: `${letter._id}:${letter.updatedAt}` });
  }

  /** Applies a runtime maintenance message; each is idempotent by the entry or timer it names. */
  async #maintain(activation: Activation, event: ActorEvent): Promise<null> {
    const saved = await activation.rewrite((doc) => {
      if (event.type === REQUEUE_EFFECT_EVENT) {
        const { attempts: _attempts, nextAttemptAt: _next, lastError: _error, ...entry } = decode<OutboxEntry>(event.entry);
        if (doc.outbox.some((queued) => queued.id === entry.id)) return null;
        const outbox = [...doc.outbox, entry];
        return { ...doc, ...outboxFields(outbox) };
      }
      const { attempts: _attempts, retryAt: _retry, ...timer } = decode<TimerRow>(event.timer);
      if (doc.timers.some((armed) => armed.id === timer.id)) return null;
      const timers = [...doc.timers, { ...timer, retryAt: this.options.clock.now() }];
      return { ...doc, timers, nextTimerAt: nextTimerAt(timers) };
    });
    if (!saved) throw new UnknownActorError(activation.address.kind, activation.address.id);
    return null;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
