/**
 * Runs the effects a turn saved in its actor's outbox, after the write, in order,
 * at least once (ARCHITECTURE, Actors §4). Domain events go to the event bus,
 * `tell` effects to other actors with the effect id as message id, and custom
 * effects to the kind's handler. Done entries are removed in a turn of their own;
 * a failing effect is retried with backoff and blocks the ones behind it. A tell
 * the target refuses is logged and dropped: the refusal is already its answer.
 */
import type { Logger } from 'pino';
import type { ActorAddress } from '../address.js';
import { formatAddress } from '../address.js';
import type { Clock } from '../clock.js';
import { decode } from '../codec.js';
import { CommandRejectedError, UnknownActorError } from '../errors.js';
import type { EventBus } from '../events/event-bus.js';
import type { OutboxEntry } from './actor-document.js';
import type { Activation } from './activation.js';
import type { EffectContext } from './actor-kind.js';
import type { ActorEvent, AskOptions } from './messages.js';
import { EVENT_EFFECT, TELL_EFFECT } from './turn.js';

export interface OutboxRunnerOptions {
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  ask(address: ActorAddress, event: ActorEvent, options?: AskOptions): Promise<unknown>;
  /** First retry delay after a failed effect, doubled up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export class OutboxRunner {
  readonly #drains = new Map<Activation, Promise<void>>();
  readonly #again = new Set<Activation>();
  readonly #waits = new Set<() => void>();
  #stopped = false;

  constructor(private readonly options: OutboxRunnerOptions) {}

  /** Starts draining this actor's outbox unless a drain is already running (then it runs once more). */
  schedule(activation: Activation): void {
    if (this.#stopped) return;
    if (this.#drains.has(activation)) {
      this.#again.add(activation);
      return;
    }
    const drain = this.#drain(activation).finally(() => {
      this.#drains.delete(activation);
      if (this.#again.delete(activation)) this.schedule(activation);
    });
    this.#drains.set(activation, drain);
  }

  isDraining(activation: Activation): boolean {
    return this.#drains.has(activation);
  }

  /** Resolves when no drain is running. */
  async idle(): Promise<void> {
    while (this.#drains.size > 0) await Promise.allSettled([...this.#drains.values()]);
  }

  /**
   * Stops retrying; entries not yet run stay in the store for whichever node serves
   * the actor next. `wait` lets the effects already running finish first.
   */
  async stop({ wait }: { wait: boolean }): Promise<void> {
    this.#stopped = true;
    for (const wake of this.#waits) wake();
    if (wait) await this.idle();
  }

  async #drain(activation: Activation): Promise<void> {
    let backoff = this.options.backoffMs ?? 100;
    while (!this.#stopped) {
      const pending = activation.doc?.outbox ?? [];
      if (pending.length === 0) return;
      const done = new Set<string>();
      let failed = false;
      for (const entry of pending) {
        try {
          await this.#run(activation, entry);
          done.add(entry.id);
        } catch (error) {
          this.options.logger.warn({ err: error, actor: formatAddress(activation.address), effect: entry.id, type: entry.type }, 'effect failed; will retry');
          failed = true;
          break;
        }
      }
      if (done.size > 0) {
        try {
          await activation.acknowledge(done);
        } catch (error) {
          this.options.logger.warn({ err: error, actor: formatAddress(activation.address) }, 'could not acknowledge effects; they will run again');
          failed = true;
        }
      }
      if (failed) {
        await this.#sleep(backoff);
        backoff = Math.min(backoff * 2, this.options.maxBackoffMs ?? 30_000);
      } else {
        backoff = this.options.backoffMs ?? 100;
      }
    }
  }

  async #run(activation: Activation, entry: OutboxEntry): Promise<void> {
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
        // A refusal is the target's final answer to this message; retrying would block every effect behind it.
        if (!(error instanceof CommandRejectedError || error instanceof UnknownActorError)) throw error;
        this.options.logger.error({ err: error, actor: formatAddress(address), to: formatAddress(to), effect: entry.id }, 'tell refused by its target; dropped');
      }
      return;
    }
    const handler = kind.effects?.[entry.type];
    if (!handler) throw new Error(`${kind.name} has no handler for effect ${entry.type}`);
    const context: EffectContext = {
      actor: address,
      effectId: entry.id,
      at: entry.at,
      ask: this.options.ask,
      clock: this.options.clock,
      logger: this.options.logger.child({ actor: formatAddress(address), effect: entry.id }),
    };
    await handler(params, context);
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.#waits.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#waits.add(wake);
    });
  }
}
