/**
 * Runs the effects a turn saved in its actor's outbox, after the write, in order,
 * at least once (ARCHITECTURE, Actors §4 and §9). Domain events go to the event bus,
 * `tell` effects to other actors with the effect id as message id, and custom
 * effects to the kind's handler. A done entry is marked done on its activation and
 * removed from the stored outbox by the actor's next write: a drain never waits for a
 * write. A crash loses the marks not saved yet, and the next holder runs those entries
 * again. For a domain event or a tell that costs nothing but the run while the bus
 * still drops the copy (it keeps one event per id within its duplicate window) and the
 * target still remembers the message id. So their marks wait for the actor's next write
 * up to `harmlessSaveDelayMs` (inside that window), and are saved sooner by a write of
 * their own only where the activation would otherwise forget them: before it leaves
 * memory, at a handover, at a drain. A kind's own effect may act outside (a webhook's
 * HTTP request, which a receiver that answered 2xx must not get again), so its mark
 * waits `saveDelayMs`. Either way one grouped pass saves the actors due.
 * A failing effect is retried under the retry policy, its attempts and next try
 * saved on the entry, and blocks the ones behind it only until the policy gives up
 * and files it as a dead letter. A tell its target refuses goes back to the sender
 * as MESSAGE_REFUSED, or to the dead letters when the sender has no use for it; an
 * effect that fails for good (PermanentEffectError) goes to its actor as EFFECT_FAILED,
 * or to the dead letters, without a retry. errors/error-table.ts says which is which.
 */
import type { Logger } from 'pino';
import type { EventObject } from 'xstate';
import type { ActorAddress } from '../address.js';
import { formatAddress } from '../address.js';
import type { Clock } from '../clock.js';
import { decode, encode } from '../codec.js';
import { CommandRejectedError, type PermanentEffectError, type UnknownActorError } from '../errors.js';
import { outboxHandling } from '../errors/error-table.js';
import type { EventBus } from '../events/event-bus.js';
import type { NodeMetrics } from '../metrics/node-metrics.js';
import { outboxFields, type ActorDocument, type OutboxEntry } from './actor-document.js';
import type { Activation, Fence } from './activation.js';
import { askByKind, type EffectContext } from './actor-kind.js';
import { deadLetterError, type DeadLetterStore } from './dead-letters.js';
import type { ActorEvent, AskOptions } from './messages.js';
import { afterFailure, type RetryPolicy } from './retry-policy.js';
import { SerialRuns } from './serial-runs.js';
import { EVENT_EFFECT, TELL_EFFECT } from './turn.js';

/** What a sender's machine receives when a message it told another actor was refused. */
export const MESSAGE_REFUSED = 'MESSAGE_REFUSED';

export interface MessageRefusedEvent extends ActorEvent {
  type: typeof MESSAGE_REFUSED;
  to: ActorAddress;
  event: ActorEvent;
  /** The refusal code: a domain code, EVENT_NOT_ACCEPTED, ALREADY_EXISTS or UNKNOWN_ACTOR. */
  code: string;
  message: string;
}

/** What an actor's machine receives when one of its effects failed for good (a PermanentEffectError). */
export const EFFECT_FAILED = 'EFFECT_FAILED';

export interface EffectFailedEvent extends ActorEvent {
  type: typeof EFFECT_FAILED;
  /** The effect's type: the name of the machine action that asked for it. */
  effect: string;
  effectId: string;
  /** The failure's own code (EFFECT_FAILED when the handler named none). */
  code: string;
  message: string;
}

export interface OutboxRunnerOptions {
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  metrics: NodeMetrics;
  deadLetters(): DeadLetterStore;
  policy: RetryPolicy;
  ask(address: ActorAddress, event: EventObject, options?: AskOptions): Promise<unknown>;
  /**
   * An effect's message to its own actor, still live on this node: delivered to that actor here
   * while this node holds the shard, a handover under way included. Through the transport it
   * would be refused as new work on a shard being handed over, the effect would outlast the
   * handover, and the next owner would run it again: a webhook sent twice.
   */
  askOwn(activation: Activation, event: EventObject, options?: AskOptions): Promise<unknown>;
  /** The lease this node holds on the actor's shard; throws ShardNotServedError when it holds none. */
  fence(activation: Activation): Fence;
  /** How long a done effect of the kind's own waits for its actor's next write before `saveDone` writes its removal. */
  saveDelayMs: number;
  /** The same for a domain event or a tell: inside the bus's duplicate window, so that one run again after a crash is dropped. */
  harmlessSaveDelayMs: number;
  /** The time of a test clock (test-clock-time.ts): an attached actor's effects report at it. */
  clockTime(clockId: string): Promise<number>;
}

type Result = { done: true } | { done: false; error: unknown };

/** How long after a failed grouped save the next one tries again (the sweep's default interval, as before). */
const FAILED_SAVE_RETRY_MS = 1000;

/** Effects whose run after a crash repeats nothing outside (see above): their marks wait for the actor's next write. */
const RUN_AGAIN_HARMLESS: ReadonlySet<string> = new Set([EVENT_EFFECT, TELL_EFFECT]);

export class OutboxRunner {
  readonly #drains = new SerialRuns({
    run: (activation) => this.#drain(activation),
    failed: (error, activation) => this.#log(error, activation, 'outbox drain stopped; the sweeper picks it up again'),
    open: () => !this.#stopped,
  });
  /** Ids of the effects running on this node now. */
  readonly #running = new Set<string>();
  /** Wake-ups for outboxes whose head waits for a retry time. */
  readonly #wakes = new Map<Activation, { at: number; timer: NodeJS.Timeout }>();
  /** Activations with entries that have run while their stored outbox still holds them, and when (real time) to save by. */
  readonly #unsaved = new Map<Activation, number>();
  #saveTimer: { at: number; timer: NodeJS.Timeout } | undefined;
  #stopped = false;

  constructor(private readonly options: OutboxRunnerOptions) {}

  /** Starts draining this actor's outbox unless a drain is already running (then it runs once more). */
  schedule(activation: Activation): void {
    this.#drains.schedule(activation);
  }

  isDraining(activation: Activation): boolean {
    return this.#drains.isRunning(activation);
  }

  /** Draining, waiting to retry, or holding done entries not saved yet: such an activation stays in memory. */
  isBusy(activation: Activation): boolean {
    return this.#drains.isRunning(activation) || this.#wakes.has(activation) || activation.hasUnsavedDone;
  }

  /** Resolves when this activation's drain (if one runs) has ended. */
  async drained(activation: Activation): Promise<void> {
    await this.#drains.ended(activation);
  }

  /**
   * Resolves when no drain is running (effects waiting for a retry time do not count)
   * and what the drains ran is saved, or a save failed (the next sweep tries again).
   */
  async idle(): Promise<void> {
    for (;;) {
      await this.#drains.idle();
      if (this.#unsaved.size === 0 || !(await this.saveDone())) return;
    }
  }

  /**
   * Writes the removal of the entries that have run, for the given activations (by
   * default every one holding some), all in one pass: a pass that yielded to I/O
   * between groups fell behind the creates arriving meanwhile. Until it lands the
   * activation knows they are done and never runs them again; a crash before it lands
   * has them run again under the next lease. Resolves false when a write failed: those
   * activations are tried again by the next call.
   */
  async saveDone(activations: Iterable<Activation> = this.#unsaved.keys()): Promise<boolean> {
    const pending: Activation[] = [];
    for (const activation of activations) {
      if (!this.#unsaved.has(activation)) continue;
      // A turn already carried its removals: nothing to queue on its mailbox, or to read.
      if (activation.hasUnsavedDone) pending.push(activation);
      else this.#unsaved.delete(activation);
    }
    const results = await Promise.all(pending.map((activation) => this.#saveDone(activation)));
    return results.every(Boolean);
  }

  /** Saves the activations due by `at` (real time) then, unless a save is due sooner; a failed save is tried again by the next. */
  #saveLater(at: number): void {
    if (this.#stopped || (this.#saveTimer && this.#saveTimer.at <= at)) return;
    clearTimeout(this.#saveTimer?.timer);
    const timer = setTimeout(
      () => {
        this.#saveTimer = undefined;
        // By the time it was set for, not by the clock: a timer may fire a fraction of a millisecond early.
        const due = [...this.#unsaved].filter(([, by]) => by <= at).map(([activation]) => activation);
        void this.saveDone(due).then(() => {
          const next = Math.min(...this.#unsaved.values());
          // One past due is one whose save failed (the store is down): try again a while later, not at once.
          if (Number.isFinite(next)) this.#saveLater(next > performance.now() ? next : performance.now() + FAILED_SAVE_RETRY_MS);
        });
      },
      Math.max(0, at - performance.now()),
    );
    timer.unref();
    this.#saveTimer = { at, timer };
  }

  /** Drops what `activation` ran but has not saved: its shard is gone, and the next holder runs those entries again. */
  forget(activation: Activation): void {
    this.#unsaved.delete(activation);
  }

  async #saveDone(activation: Activation): Promise<boolean> {
    try {
      await activation.saveDone();
    } catch (error) {
      if (outboxHandling(error) === 'lease-lost') {
        this.forget(activation);
        return true;
      }
      this.#log(error, activation, 'saving done effects failed; the next sweep tries again');
      return false;
    }
    if (!activation.hasUnsavedDone) this.#unsaved.delete(activation);
    return true;
  }

  /**
   * Stops starting effects; entries not yet run stay in the store for whichever node
   * serves the actor next. `wait` lets the effects already running finish first.
   */
  async stop({ wait }: { wait: boolean }): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#saveTimer?.timer);
    for (const { timer } of this.#wakes.values()) clearTimeout(timer);
    this.#wakes.clear();
    if (wait) await this.idle();
  }

  /**
   * Runs the outbox head by head, each marked done on the activation as soon as it has
   * run, so this node never runs a finished effect again. The drain holds the epoch it
   * started under: a lost lease, or a lease taken again under a new epoch (when
   * another drain may have started), ends it.
   */
  async #drain(activation: Activation): Promise<void> {
    let epoch: number | undefined;
    while (!this.#stopped) {
      const head = activation.nextEffect();
      if (!head) return;
      const fence = this.#fence(activation, epoch);
      if (!fence) return;
      epoch = fence.epoch;
      const now = this.options.clock.now();
      if ((head.nextAttemptAt ?? 0) > now) return this.#wakeAt(activation, head.nextAttemptAt!);
      // Another activation of this actor on this node (the shard was lost and taken back) is running it: that drain settles it.
      if (this.#running.has(head.id)) return;
      this.#running.add(head.id);
      let result: Result;
      try {
        result = await this.#run(activation, head, fence);
      } finally {
        this.#running.delete(head.id);
      }
      if (result.done) {
        this.options.metrics.effect(activation.address.kind, head.type, 'ok');
        activation.markDone(head.id);
        const by = performance.now() + (RUN_AGAIN_HARMLESS.has(head.type) ? this.options.harmlessSaveDelayMs : this.options.saveDelayMs);
        if (by < (this.#unsaved.get(activation) ?? Infinity)) this.#unsaved.set(activation, by);
        this.#saveLater(this.#unsaved.get(activation)!);
        continue;
      }
      // The lease moved while it ran: its next holder owns the entry's attempts now.
      if (!this.#fence(activation, epoch)) return;
      const retry = await this.#afterFailure(activation, head, result.error, now);
      await activation.rewrite((doc) => settle(doc, head.id, retry));
      if (retry) return this.#wakeAt(activation, retry.retryAt);
    }
  }

  /** The lease to run effects under, or null when this node may not run them now. */
  #fence(activation: Activation, epoch: number | undefined): Fence | null {
    if (activation.retired) return null;
    try {
      const fence = this.options.fence(activation);
      return epoch === undefined || fence.epoch === epoch ? fence : null;
    } catch (error) {
      if (outboxHandling(error) === 'lease-lost') return null;
      throw error;
    }
  }

  /** What the entry's failure leads to: a retry later (its next attempt), or null when it became a dead letter. */
  async #afterFailure(activation: Activation, entry: OutboxEntry, error: unknown, now: number): Promise<{ retryAt: number; message: string } | null> {
    const attempts = (entry.attempts ?? 0) + 1;
    const decision = afterFailure(this.options.policy, attempts, entry.at, now);
    const message = error instanceof Error ? error.message : String(error);
    if (decision.retry) {
      this.options.metrics.effect(activation.address.kind, entry.type, 'retry');
      this.#log(error, activation, 'effect failed; will retry', { effect: entry.id, type: entry.type, attempts, retryAt: decision.at });
      return { retryAt: decision.at, message };
    }
    await this.options.deadLetters().add({
      key: `effect:${entry.id}`,
      source: 'effect',
      actor: activation.address,
      consumer: null,
      payload: encode(entry),
      error: deadLetterError(error),
      attempts,
      firstAttemptAt: entry.at,
    });
    this.options.metrics.effect(activation.address.kind, entry.type, 'dead_lettered');
    return null;
  }

  async #run(activation: Activation, entry: OutboxEntry, fence: Fence): Promise<Result> {
    try {
      await this.#perform(activation, entry, fence);
      return { done: true };
    } catch (error) {
      return { done: false, error };
    }
  }

  async #perform(activation: Activation, entry: OutboxEntry, fence: Fence): Promise<void> {
    const params = decode<Record<string, unknown>>(entry.params);
    const { address, kind } = activation;
    if (entry.type === EVENT_EFFECT) {
      await this.options.bus.publish({
        id: entry.id,
        type: String(params.type),
        actor: { kind: address.kind, id: address.id },
        at: entry.at,
        data: (params.data ?? {}) as Record<string, unknown>,
        ...(activation.doc?.clockId ? { clockId: activation.doc.clockId } : {}),
      });
      return;
    }
    if (entry.type === TELL_EFFECT) {
      const { to, event } = params as { to: ActorAddress; event: ActorEvent };
      try {
        await this.options.ask(to, event, { messageId: entry.id });
      } catch (error) {
        if (outboxHandling(error) !== 'refused') throw error;
        await this.#refused(activation, entry, to, event, error as CommandRejectedError | UnknownActorError);
      }
      return;
    }
    const handler = kind.effects?.[entry.type];
    if (!handler) throw new Error(`${kind.name} has no handler for effect ${entry.type}`);
    const clockId = activation.doc?.clockId;
    const context: EffectContext = {
      actor: address,
      effectId: entry.id,
      at: entry.at,
      epoch: fence.epoch,
      ask: askByKind(this.options.ask),
      askAt: (to, event, options) =>
        to.kind === address.kind && to.id === address.id ? this.options.askOwn(activation, event, options) : this.options.ask(to, event, options),
      clock: this.options.clock,
      actorNow: async () => (clockId ? this.options.clockTime(clockId) : this.options.clock.now()),
      logger: this.options.logger.child({ actor: formatAddress(address), effect: entry.id }),
      metrics: this.options.metrics,
    };
    try {
      await handler(params, context);
    } catch (error) {
      if (outboxHandling(error) !== 'permanent') throw error;
      await this.#failedForGood(activation, entry, error as PermanentEffectError);
    }
  }

  /**
   * Running the effect again can never succeed, so it is not retried: the actor's machine
   * hears of it if it takes EFFECT_FAILED, and otherwise it is kept as a dead letter.
   */
  async #failedForGood(activation: Activation, entry: OutboxEntry, error: PermanentEffectError): Promise<void> {
    let reason: unknown = error;
    if (activation.kind.machine.events.includes(EFFECT_FAILED)) {
      const failed: EffectFailedEvent = { type: EFFECT_FAILED, effect: entry.type, effectId: entry.id, code: error.code, message: error.message };
      try {
        await this.options.ask(activation.address, failed, { messageId: `${entry.id}:failed` });
        return;
      } catch (returned) {
        // The machine does not take it in its current state: keep it as a dead letter.
        if (!(returned instanceof CommandRejectedError)) throw returned;
        reason = returned;
      }
    }
    this.#log(error, activation, 'effect failed for good; kept as a dead letter', { effect: entry.id, type: entry.type });
    await this.options.deadLetters().add({
      key: `effect:${entry.id}`,
      source: 'effect',
      actor: activation.address,
      consumer: null,
      payload: encode(entry),
      error: deadLetterError(reason),
      attempts: (entry.attempts ?? 0) + 1,
      firstAttemptAt: entry.at,
    });
  }

  /**
   * A refusal is the target's final answer to this message, so it is not retried:
   * the sender's machine hears of it if it takes MESSAGE_REFUSED, and a refusal
   * nobody takes is kept as a dead letter.
   */
  async #refused(
    activation: Activation,
    entry: OutboxEntry,
    to: ActorAddress,
    event: ActorEvent,
    error: CommandRejectedError | UnknownActorError,
  ): Promise<void> {
    const refusal: MessageRefusedEvent = {
      type: MESSAGE_REFUSED,
      to,
      event,
      code: error.code,
      message: error.message,
    };
    let reason: unknown = error;
    if (activation.kind.machine.events.includes(MESSAGE_REFUSED)) {
      try {
        await this.options.ask(activation.address, refusal, { messageId: `${entry.id}:refused` });
        return;
      } catch (returned) {
        // The sender's machine does not take it in its current state: keep it as a dead letter.
        if (!(returned instanceof CommandRejectedError)) throw returned;
        reason = returned;
      }
    }
    await this.options.deadLetters().add({
      key: `refusal:${entry.id}`,
      source: 'refusal',
      actor: activation.address,
      consumer: null,
      payload: encode({ entry, refusal }),
      error: deadLetterError(reason),
      attempts: 1,
      firstAttemptAt: entry.at,
    });
  }

  #wakeAt(activation: Activation, at: number): void {
    if (this.#stopped) return;
    const existing = this.#wakes.get(activation);
    if (existing && existing.at <= at) return;
    if (existing) clearTimeout(existing.timer);
    const timer = setTimeout(
      () => {
        this.#wakes.delete(activation);
        this.schedule(activation);
      },
      Math.max(0, at - this.options.clock.now()),
    );
    timer.unref();
    this.#wakes.set(activation, { at, timer });
  }

  #log(error: unknown, activation: Activation, message: string, extra: Record<string, unknown> = {}): void {
    const handling = outboxHandling(error);
    const level = handling === 'retry-quietly' || handling === 'lease-lost' ? 'debug' : 'warn';
    this.options.logger[level]({ err: error, actor: formatAddress(activation.address), ...extra }, message);
  }
}

/**
 * The document once an entry has failed: gone when filed as a dead letter (`retry`
 * null), otherwise kept with its next attempt. Null when the entry is no longer there.
 */
function settle(doc: ActorDocument, entryId: string, retry: { retryAt: number; message: string } | null): ActorDocument | null {
  const index = doc.outbox.findIndex((entry) => entry.id === entryId);
  if (index < 0) return null;
  const outbox = [...doc.outbox];
  const entry = outbox[index]!;
  if (retry) outbox[index] = { ...entry, attempts: (entry.attempts ?? 0) + 1, nextAttemptAt: retry.retryAt, lastError: retry.message.slice(0, 500) };
  else outbox.splice(index, 1);
  return { ...doc, ...outboxFields(outbox) };
}
