/**
 * Runs the effects a turn saved in its actor's outbox, after the write, in order,
 * at least once (ARCHITECTURE, Actors §4 and §9). Domain events go to the event bus,
 * `tell` effects to other actors with the effect id as message id, and custom
 * effects to the kind's handler. Done entries are removed in a turn of their own.
 * A failing effect is retried under the retry policy, its attempts and next try
 * saved on the entry, and blocks the ones behind it only until the policy gives up
 * and files it as a dead letter. A tell its target refuses goes back to the sender
 * as MESSAGE_REFUSED, or to the dead letters when the sender has no use for it.
 */
import type { Logger } from 'pino';
import type { ActorAddress } from '../address.js';
import { formatAddress } from '../address.js';
import type { Clock } from '../clock.js';
import { decode, encode } from '../codec.js';
import { CommandRejectedError, ShardNotServedError, ShuttingDownError, UnknownActorError } from '../errors.js';
import type { EventBus } from '../events/event-bus.js';
import type { RuntimeMetrics } from '../metrics/runtime-metrics.js';
import { outboxDueAt, type ActorDocument, type OutboxEntry } from './actor-document.js';
import type { Activation, Fence } from './activation.js';
import type { EffectContext } from './actor-kind.js';
import { deadLetterError, type DeadLetterStore } from './dead-letters.js';
import type { ActorEvent, AskOptions } from './messages.js';
import { afterFailure, type RetryPolicy } from './retry-policy.js';
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

export interface OutboxRunnerOptions {
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  metrics: RuntimeMetrics;
  deadLetters(): DeadLetterStore;
  policy: RetryPolicy;
  ask(address: ActorAddress, event: ActorEvent, options?: AskOptions): Promise<unknown>;
  /** The lease this node holds on the actor's shard; throws ShardNotServedError when it holds none. */
  fence(activation: Activation): Fence;
}

type Result = { done: true } | { done: false; error: unknown };

export class OutboxRunner {
  readonly #drains = new Map<Activation, Promise<void>>();
  readonly #again = new Set<Activation>();
  /** Wake-ups for outboxes whose head waits for a retry time. */
  readonly #wakes = new Map<Activation, { at: number; timer: NodeJS.Timeout }>();
  #stopped = false;

  constructor(private readonly options: OutboxRunnerOptions) {}

  /** Starts draining this actor's outbox unless a drain is already running (then it runs once more). */
  schedule(activation: Activation): void {
    if (this.#stopped) return;
    if (this.#drains.has(activation)) {
      this.#again.add(activation);
      return;
    }
    const drain = this.#drain(activation)
      .catch((error: unknown) => this.#log(error, activation, 'outbox drain stopped; the sweeper picks it up again'))
      .finally(() => {
        this.#drains.delete(activation);
        if (this.#again.delete(activation)) this.schedule(activation);
      });
    this.#drains.set(activation, drain);
  }

  isDraining(activation: Activation): boolean {
    return this.#drains.has(activation);
  }

  /** Draining, or waiting to retry: such an activation stays in memory. */
  isBusy(activation: Activation): boolean {
    return this.#drains.has(activation) || this.#wakes.has(activation);
  }

  /** Resolves when no drain is running (effects waiting for a retry time do not count). */
  async idle(): Promise<void> {
    while (this.#drains.size > 0) await Promise.allSettled([...this.#drains.values()]);
  }

  /**
   * Stops starting effects; entries not yet run stay in the store for whichever node
   * serves the actor next. `wait` lets the effects already running finish first.
   */
  async stop({ wait }: { wait: boolean }): Promise<void> {
    this.#stopped = true;
    for (const { timer } of this.#wakes.values()) clearTimeout(timer);
    this.#wakes.clear();
    if (wait) await this.idle();
  }

  async #drain(activation: Activation): Promise<void> {
    while (!this.#stopped) {
      const pending = activation.doc?.outbox ?? [];
      if (pending.length === 0) return;
      let fence: Fence;
      try {
        fence = this.options.fence(activation);
      } catch (error) {
        // Not ours (any more): the node holding the shard runs these.
        if (error instanceof ShardNotServedError) return;
        throw error;
      }
      const now = this.options.clock.now();
      const done = new Set<string>();
      let failure: { entry: OutboxEntry; error: unknown } | undefined;
      for (const entry of pending) {
        if ((entry.nextAttemptAt ?? 0) > now) break;
        const result = await this.#run(activation, entry, fence);
        if (!result.done) {
          failure = { entry, error: result.error };
          break;
        }
        this.options.metrics.effect(activation.address.kind, entry.type, 'ok');
        done.add(entry.id);
      }
      if (done.size === 0 && !failure) return this.#wakeAt(activation, pending[0]!.nextAttemptAt ?? now);
      const retry = failure && (await this.#afterFailure(activation, failure.entry, failure.error, now));
      await activation.rewrite((doc) => settle(doc, done, failure?.entry, retry ?? undefined));
      if (retry) {
        const head = activation.doc?.outbox[0];
        return this.#wakeAt(activation, head?.nextAttemptAt ?? now);
      }
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
      });
      return;
    }
    if (entry.type === TELL_EFFECT) {
      const { to, event } = params as { to: ActorAddress; event: ActorEvent };
      try {
        await this.options.ask(to, event, { messageId: entry.id });
      } catch (error) {
        if (!(error instanceof CommandRejectedError || error instanceof UnknownActorError)) throw error;
        await this.#refused(activation, entry, to, event, error);
      }
      return;
    }
    const handler = kind.effects?.[entry.type];
    if (!handler) throw new Error(`${kind.name} has no handler for effect ${entry.type}`);
    const context: EffectContext = {
      actor: address,
      effectId: entry.id,
      at: entry.at,
      epoch: fence.epoch,
      ask: this.options.ask,
      clock: this.options.clock,
      logger: this.options.logger.child({ actor: formatAddress(address), effect: entry.id }),
    };
    await handler(params, context);
  }

  /**
   * A refusal is the target's final answer to this message, so it is not retried:
   * the sender's machine hears of it if it takes MESSAGE_REFUSED, and a refusal
   * nobody takes is kept as a dead letter.
   */
  async #refused(activation: Activation, entry: OutboxEntry, to: ActorAddress, event: ActorEvent, error: CommandRejectedError | UnknownActorError): Promise<void> {
    const refusal: MessageRefusedEvent = {
      type: MESSAGE_REFUSED,
      to,
      event,
      code: error instanceof CommandRejectedError ? error.code : 'UNKNOWN_ACTOR',
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
    const timer = setTimeout(() => {
      this.#wakes.delete(activation);
      this.schedule(activation);
    }, Math.max(0, at - this.options.clock.now()));
    timer.unref();
    this.#wakes.set(activation, { at, timer });
  }

  #log(error: unknown, activation: Activation, message: string, extra: Record<string, unknown> = {}): void {
    const level = error instanceof ShuttingDownError ? 'debug' : 'warn';
    this.options.logger[level]({ err: error, actor: formatAddress(activation.address), ...extra }, message);
  }
}

/**
 * The document after a drain: done entries gone, a failed one carrying its next
 * attempt or, once a dead letter, gone too. Null when there is nothing to change.
 */
function settle(doc: ActorDocument, done: ReadonlySet<string>, failed: OutboxEntry | undefined, retry: { retryAt: number; message: string } | undefined): ActorDocument | null {
  let changed = false;
  const outbox: OutboxEntry[] = [];
  for (const entry of doc.outbox) {
    if (done.has(entry.id)) {
      changed = true;
    } else if (failed && entry.id === failed.id) {
      changed = true;
      if (retry) outbox.push({ ...entry, attempts: (entry.attempts ?? 0) + 1, nextAttemptAt: retry.retryAt, lastError: retry.message.slice(0, 500) });
    } else {
      outbox.push(entry);
    }
  }
  return changed ? { ...doc, outbox, outboxPending: outbox.length > 0, outboxDueAt: outboxDueAt(outbox) } : null;
}
