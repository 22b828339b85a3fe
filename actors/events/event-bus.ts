/**
 * Domain events: what actors announce after a turn is saved (ORDER_CREATED,
 * PAYMENT_SETTLED, …). Publishing is at least once and de-duplicated by event id;
 * consumers are durable and named, so a webhook dispatcher or a projection resumes
 * where it stopped and sees each event at least once.
 *
 * A delivery that keeps failing is retried with backoff under a RetryPolicy; past it,
 * with a dead-letter store configured, the event becomes a dead letter (source `bus`,
 * key `bus:<durable>:<event id>`) and the consumer moves on (ARCHITECTURE, Actors 9).
 */
import type { Clock } from '../clock.js';
import { decode, encode } from '../codec.js';
import type { Encoded } from '../codec.js';
import { CommandRejectedError } from '../errors.js';
import { deadLetterError } from '../runtime/dead-letters.js';
import type { DeadLetter, DeadLetterError, DeadLetterStore } from '../runtime/dead-letters.js';
import { DEFAULT_RETRY_POLICY, afterFailure } from '../runtime/retry-policy.js';
import type { RetryPolicy } from '../runtime/retry-policy.js';
export interface DomainEvent {
  /** Stable id, `<kind>:<actorId>:<version>:<index>` for events from actors. Duplicates are dropped. */
  id: string;
  /** Upper-case event type, for example ORDER_CREATED. */
  type: string;
  /** The actor that emitted it. */
  actor: { kind: string; id: string };
  /** Milliseconds since the epoch, from the runtime's clock. */
  at: number;
  /** JSON-compatible payload. */
  data: Record<string, unknown>;
  /** The sandbox test clock the emitting actor runs on, when it runs on one: what the event's consequences (its webhook deliveries) run on too. */
  clockId?: string;
}

export interface ConsumeOptions {
  /** Durable consumer name: its position survives restarts of the consumer. */
  durable: string;
  /** Only events of these actor kinds (default: all). */
  kinds?: string[];
  /** Only these event types (default: all). */
  types?: string[];
  /** How long a handler may take before its event is redelivered. */
  ackWaitMs?: number;
}

/**
 * A handler that throws gets the event again later, with backoff; the events behind
 * it wait. Past the retry policy the event becomes a dead letter when the bus has a
 * dead-letter store, and is retried for ever (logged at error level) when it has none.
 */
export type EventHandler = (event: DomainEvent) => Promise<void>;

export interface Subscription {
  /** Stops delivery; the durable position is kept. */
  stop(): Promise<void>;
}

export interface EventBusStatus {
  connected: boolean;
  responseTimeMs?: number;
}

export interface EventBus {
  readonly adapter: 'memory' | 'jetstream';
  publish(event: DomainEvent): Promise<void>;
  consume(options: ConsumeOptions, handler: EventHandler): Promise<Subscription>;
  status(): Promise<EventBusStatus>;
  close(): Promise<void>;
}

/** Whether an event is one a consumer with these options takes. */
export function eventMatcher({ kinds, types }: Pick<ConsumeOptions, 'kinds' | 'types'>): (event: DomainEvent) => boolean {
  const kindSet = kinds?.length ? new Set(kinds) : undefined;
  const typeSet = types?.length ? new Set(types) : undefined;
  return (event) => (kindSet?.has(event.actor.kind) ?? true) && (typeSet?.has(event.type) ?? true);
}

/** Subject of an event on a JetStream stream: `<ns>.events.<kind>.<id>.<TYPE>`. */
export function eventSubject(namespace: string, event: Pick<DomainEvent, 'actor' | 'type'>): string {
  return `${namespace}.events.${event.actor.kind}.${event.actor.id}.${event.type}`;
}

/** How both adapters bound the retries of a handler that keeps failing. */
export interface BusDeadLetterOptions {
  /**
   * Where deliveries that fail past `retryPolicy` go; the bus also registers itself as
   * the store's retrier for source `bus`. Without it a failing event is retried for ever
   * and holds back its consumer, logged at error level once past `maxAttempts`.
   */
  deadLetters?: DeadLetterStore;
  /** Default DEFAULT_RETRY_POLICY. Attempts are counted per event and per durable consumer. */
  retryPolicy?: RetryPolicy;
  /** Measures the age of a failing delivery (default: the system time). */
  clock?: Pick<Clock, 'now'>;
}

/** The key of the dead letter for an event (or message) a durable consumer could not take. */
export function busDeadLetterKey(durable: string, eventId: string): string {
  return `bus:${durable}:${eventId}`;
}

/** What an adapter does after a failed delivery. */
export type BusFailureDecision =
  /** Retry after `delayMs`; `exhausted` when the policy is spent but there is no dead-letter store to take the event. */
  | { deadLetter: false; delayMs: number; exhausted: boolean }
  /** File the event as a dead letter and move on (should filing fail, retry after `delayMs`). */
  | { deadLetter: true; delayMs: number };

/** A live consumer a bus letter can be handed back to. */
export interface BusRedelivery {
  /** Runs the consumer's handler on the event, one at a time with its own deliveries; throws what the handler throws. */
  redeliver(event: DomainEvent): Promise<void>;
}

/**
 * The retry policy and dead letters of one bus: shared by both adapters. Not part of
 * the EventBus interface; adapters create one from their options.
 */
export class BusDeadLetters {
  readonly policy: RetryPolicy;
  readonly store: DeadLetterStore | undefined;
  readonly #clock: Pick<Clock, 'now'>;
  /** Live consumers on this bus, by durable name. */
  readonly #consumers = new Map<string, Set<BusRedelivery>>();

  constructor(options: BusDeadLetterOptions) {
    this.policy = checkedPolicy(options.retryPolicy ?? DEFAULT_RETRY_POLICY);
    this.store = options.deadLetters;
    this.#clock = options.clock ?? { now: () => Date.now() };
    this.store?.onRetry('bus', (letter) => this.#retry(letter));
  }

  now(): number {
    return this.#clock.now();
  }

  /** Makes a consumer reachable for retries of its letters; the returned function removes it. */
  live(durable: string, consumer: BusRedelivery): () => void {
    const set = this.#consumers.get(durable) ?? new Set<BusRedelivery>();
    set.add(consumer);
    this.#consumers.set(durable, set);
    return () => {
      set.delete(consumer);
      if (set.size === 0 && this.#consumers.get(durable) === set) this.#consumers.delete(durable);
    };
  }

  /** After the `attempts`-th failed delivery of work first tried at `firstAttemptAt`. */
  afterFailure(attempts: number, firstAttemptAt: number): BusFailureDecision {
    const now = this.now();
    const decision = afterFailure(this.policy, attempts, firstAttemptAt, now);
    if (decision.retry) return { deadLetter: false, delayMs: Math.max(0, decision.at - now), exhausted: false };
    // Spent: the delay of an unbounded policy, for when the event stays (no store, or filing failed).
    const unbounded = afterFailure(
      { ...this.policy, maxAttempts: Number.POSITIVE_INFINITY, maxAgeMs: Number.POSITIVE_INFINITY },
      attempts,
      firstAttemptAt,
      now,
    );
    const delayMs = unbounded.retry ? Math.max(0, unbounded.at - now) : this.policy.maxBackoffMs;
    return this.store ? { deadLetter: true, delayMs } : { deadLetter: false, delayMs, exhausted: true };
  }

  /** Files what `durable` could not take; resolves once the letter is stored, so the caller may then let the work go. */
  async file(letter: { durable: string; id: string; payload: Encoded; error: unknown; attempts: number; firstAttemptAt: number }): Promise<DeadLetter> {
    if (!this.store) throw new Error('no dead-letter store is configured for this bus');
    const error: DeadLetterError = deadLetterError(letter.error);
    return this.store.add({
      key: busDeadLetterKey(letter.durable, letter.id),
      source: 'bus',
      actor: null,
      consumer: letter.durable,
      payload: letter.payload,
      error,
      attempts: letter.attempts,
      firstAttemptAt: letter.firstAttemptAt,
    });
  }

  /** A bus letter back to the live consumer of its durable name on this node. */
  async #retry(letter: DeadLetter): Promise<void> {
    const durable = letter.consumer ?? '';
    const event = decode<unknown>(letter.payload);
    if (!isDomainEvent(event)) {
      throw new CommandRejectedError(
        'DEAD_LETTER_NOT_RETRYABLE',
        `dead letter ${letter._id} holds a message that is not a domain event; it can only be discarded`,
      );
    }
    const [consumer] = this.#consumers.get(durable) ?? [];
    if (!consumer) {
      throw new CommandRejectedError(
        'CONSUMER_NOT_RUNNING',
        `no consumer ${JSON.stringify(durable)} runs on this node; retry where it runs, or once it is started`,
      );
    }
    try {
      await consumer.redeliver(event);
    } catch (error) {
      if (error instanceof CommandRejectedError && error.code === 'CONSUMER_NOT_RUNNING') throw error;
      throw new CommandRejectedError(
        'DEAD_LETTER_RETRY_FAILED',
        `consumer ${JSON.stringify(durable)} failed again on event ${event.id}; the letter stays open`,
        { error: deadLetterError(error) },
        { cause: error },
      );
    }
  }
}

/** The error a bus throws when the consumer it should hand an event to is stopping or stopped. */
export function consumerNotRunning(durable: string): CommandRejectedError {
  return new CommandRejectedError('CONSUMER_NOT_RUNNING', `consumer ${JSON.stringify(durable)} is stopping on this node`);
}

/** The payload of a bus letter for an event. */
export function eventPayload(event: DomainEvent): Encoded {
  return encode(event);
}

/** True for a value shaped like a DomainEvent (what a consumer may hand to its handler). */
export function isDomainEvent(value: unknown): value is DomainEvent {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { id, type, actor, at, data } = value as Record<string, unknown>;
  if (typeof id !== 'string' || typeof type !== 'string' || typeof at !== 'number') return false;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  if (typeof actor !== 'object' || actor === null) return false;
  const { kind, id: actorId } = actor as Record<string, unknown>;
  const { clockId } = value as Record<string, unknown>;
  return typeof kind === 'string' && typeof actorId === 'string' && (clockId === undefined || typeof clockId === 'string');
}

/**
 * Runs the calls it is given one after another, so a retry through the dead-letter
 * store never runs beside a consumer's own delivery.
 */
export class Serial {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(work);
    this.#tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once everything queued so far has finished. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}

function checkedPolicy(policy: RetryPolicy): RetryPolicy {
  const problems: string[] = [];
  if (!(policy.baseMs > 0)) problems.push('baseMs must be above 0');
  if (!(policy.maxBackoffMs >= policy.baseMs)) problems.push('maxBackoffMs must be at least baseMs');
  if (!(Number.isInteger(policy.maxAttempts) && policy.maxAttempts >= 1)) problems.push('maxAttempts must be an integer of at least 1');
  if (!(policy.maxAgeMs > 0)) problems.push('maxAgeMs must be above 0');
  if (problems.length > 0) throw new TypeError(`invalid retry policy: ${problems.join('; ')}`);
  return { ...policy };
}
