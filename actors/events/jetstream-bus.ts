/**
 * Event bus on one JetStream stream per namespace (`<NS>_EVENTS`, subjects
 * `<ns>.events.>`). JetStream drops a republished event id inside the duplicate
 * window, and each named consumer is a durable pull consumer whose position lives
 * on the server. `max_ack_pending: 1` is what makes delivery one at a time and in
 * order: a nak'd event stays pending through its backoff, so nothing overtakes it.
 * An event whose handler fails past the retry policy (counted by the server's
 * delivery count), or a message that is not a domain event at all, is filed as a
 * dead letter and then terminated, so the consumer moves on; without a dead-letter
 * store a failing event is retried for ever, as before.
 */
import { AckPolicy, DeliverPolicy, JetStreamApiCodes, JetStreamApiError, RetentionPolicy, StorageType, jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { Consumer, ConsumerMessages, ConsumerUpdateConfig, JetStreamClient, JetStreamManager, JsMsg, StreamUpdateConfig } from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import type { Encoded } from '../codec.js';
import { BusDeadLetters, Serial, consumerNotRunning, eventMatcher, eventPayload, eventSubject, isDomainEvent } from './event-bus.js';
import type { BusDeadLetterOptions, BusRedelivery, ConsumeOptions, DomainEvent, EventBus, EventBusStatus, EventHandler, Subscription } from './event-bus.js';

export interface JetStreamBusOptions extends BusDeadLetterOptions {
  namespace: string;
  storage?: 'file' | 'memory';
  /** Copies the servers keep of the event stream (1 unless set); 3 in a cluster of three servers, so one may restart. */
  replicas?: number;
  /** Republishing an event id within this window is a no-op (default 2 minutes). */
  duplicateWindowMs?: number;
  logger?: Logger;
}

const FIRST_RETRY_MS = 50;
const MAX_RETRY_MS = 5_000;
const DEFAULT_ACK_WAIT_MS = 30_000;

function retryDelayMs(failures: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** (Math.max(failures, 1) - 1), MAX_RETRY_MS);
}

/** Stream and consumer names may not contain `.`, `*`, `>` or whitespace. */
function sanitise(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

export function eventStreamName(namespace: string): string {
  return `${sanitise(namespace.toUpperCase())}_EVENTS`;
}

export class JetStreamBus implements EventBus {
  readonly adapter = 'jetstream' as const;
  readonly #subscriptions = new Set<JetStreamSubscription>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly namespace: string,
    private readonly stream: string,
    private readonly logger: Logger | undefined,
    private readonly retries: BusDeadLetters,
  ) {}

  /** Creates the namespace's stream, or brings an existing one up to this configuration. */
  static async connect(nc: NatsConnection, options: JetStreamBusOptions): Promise<JetStreamBus> {
    const { namespace } = options;
    if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(namespace)) {
      throw new TypeError(`event namespace ${JSON.stringify(namespace)} is not dot-separated [A-Za-z0-9_-] tokens`);
    }
    const jsm = await jetstreamManager(nc);
    const stream = eventStreamName(namespace);
    const storage = options.storage === 'memory' ? StorageType.Memory : StorageType.File;
    const changeable = {
      subjects: [`${namespace}.events.>`],
      duplicate_window: nanos(options.duplicateWindowMs ?? 120_000),
      num_replicas: options.replicas ?? 1,
    } satisfies Partial<StreamUpdateConfig>;
    const info = await updateOrAdd(
      () => jsm.streams.update(stream, changeable),
      // Limits retention keeps every event for every durable consumer, including ones created later.
      () => jsm.streams.add({ ...changeable, name: stream, storage, retention: RetentionPolicy.Limits }),
      JetStreamApiCodes.StreamNotFound,
    );
    if (info.config.storage !== storage) {
      // The server cannot change a stream's storage in place; the existing stream is used as it is.
      options.logger?.warn({ stream, storage: info.config.storage, requested: storage }, 'event stream keeps its existing storage');
    }
    return new JetStreamBus(nc, jetstream(nc), jsm, namespace, stream, options.logger, new BusDeadLetters(options));
  }

  async publish(event: DomainEvent): Promise<void> {
    await this.js.publish(eventSubject(this.namespace, event), JSON.stringify(event), { msgID: event.id });
  }

  async consume(options: ConsumeOptions, handler: EventHandler): Promise<Subscription> {
    const durable = sanitise(options.durable);
    const changeable = {
      ack_wait: nanos(options.ackWaitMs ?? DEFAULT_ACK_WAIT_MS),
      max_ack_pending: 1,
      ...this.#filter(options),
    } satisfies Partial<ConsumerUpdateConfig>;
    await updateOrAdd(
      () => this.jsm.consumers.update(this.stream, durable, changeable),
      () =>
        this.jsm.consumers.add(this.stream, {
          ...changeable,
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
        }),
      JetStreamApiCodes.ConsumerNotFound,
    );
    const consumer = await this.js.consumers.get(this.stream, durable);
    const subscription = new JetStreamSubscription(consumer, eventMatcher(options), handler, this.logger, durable, this.retries);
    this.#subscriptions.add(subscription);
    const unlist = this.retries.live(durable, subscription);
    void subscription.done.finally(() => {
      unlist();
      this.#subscriptions.delete(subscription);
    });
    return subscription;
  }

  async status(): Promise<EventBusStatus> {
    if (this.nc.isClosed()) return { connected: false };
    try {
      return { connected: true, responseTimeMs: await this.nc.rtt() };
    } catch {
      return { connected: false };
    }
  }

  /** Stops this bus's consumers; the connection belongs to the caller and stays open. */
  async close(): Promise<void> {
    await Promise.all([...this.#subscriptions].map((subscription) => subscription.stop()));
  }

  /**
   * Server-side filter. Several subjects need `filter_subjects` (nats-server 2.10+);
   * older servers get one wider subject and the rest is filtered client-side.
   */
  #filter({ kinds, types }: ConsumeOptions): Pick<ConsumerUpdateConfig, 'filter_subject' | 'filter_subjects'> {
    const prefix = `${this.namespace}.events`;
    const kindTokens = kinds?.length ? kinds : ['*'];
    const subjects = types?.length
      ? kindTokens.flatMap((kind) => types.map((type) => `${prefix}.${kind}.*.${type}`))
      : kindTokens.map((kind) => `${prefix}.${kind}.>`);
    const [only] = subjects;
    // Both keys are always set: an update merges into the old config, which may hold the other one.
    if (subjects.length === 1 && only !== undefined) return { filter_subject: only, filter_subjects: undefined };
    if (supportsMultipleFilters(this.nc)) return { filter_subject: undefined, filter_subjects: subjects };
    const kind = kinds?.length === 1 ? kinds[0] : '*';
    const type = types?.length === 1 ? types[0] : '*';
    const wider = types?.length ? `${prefix}.${kind}.*.${type}` : `${prefix}.${kind}.>`;
    return { filter_subject: wider, filter_subjects: undefined };
  }
}

class JetStreamSubscription implements Subscription, BusRedelivery {
  readonly done: Promise<void>;
  #stopping = false;
  #messages: ConsumerMessages | undefined;
  #wake: (() => void) | undefined;
  /** Deliveries and retries of dead letters, one at a time. */
  readonly #serial = new Serial();
  /** When this node first tried the message it is retrying (max_ack_pending 1: one at a time). */
  #firstAttempt: { seq: number; at: number } | undefined;

  constructor(
    private readonly consumer: Consumer,
    private readonly matches: (event: DomainEvent) => boolean,
    private readonly handler: EventHandler,
    private readonly logger: Logger | undefined,
    private readonly durable: string,
    private readonly retries: BusDeadLetters,
  ) {
    this.done = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    // Unsubscribes at once so the server sends nothing more; a handler already running still finishes and acks.
    void this.#messages?.close();
    this.#wake?.();
    await this.done;
    await this.#serial.idle();
  }

  /** A retry of one of this consumer's dead letters: straight to the handler, never beside a delivery. */
  redeliver(event: DomainEvent): Promise<void> {
    return this.#serial.run(async () => {
      if (this.#stopping) throw consumerNotRunning(this.durable);
      await this.handler(event);
    });
  }

  async #run(): Promise<void> {
    let failures = 0;
    while (!this.#stopping) {
      try {
        this.#messages = await this.consumer.consume({ max_messages: 1 });
        // close() settles only once the loop below drains the iterator, so it is not awaited.
        if (this.#stopping) void this.#messages.close();
        for await (const message of this.#messages) {
          // Delivered after stop(): give it back now rather than after ack_wait.
          if (this.#stopping) message.nak();
          else await this.#handle(message);
          failures = 0;
        }
        if (this.#stopping) return;
        this.logger?.warn({ durable: this.durable }, 'event consumer ended unexpectedly; restarting');
      } catch (error) {
        if (this.#stopping) return;
        this.logger?.error({ err: error, durable: this.durable }, 'event consumer failed; restarting');
      }
      failures += 1;
      await this.#sleep(retryDelayMs(failures));
    }
  }

  async #handle(message: JsMsg): Promise<void> {
    const decoded = decodeEvent(message);
    if (!decoded.ok) return this.#undecodable(message, decoded.error);
    const event = decoded.event;
    if (!this.matches(event)) {
      message.ack();
      return;
    }
    const attempts = message.info.deliveryCount;
    const firstAttemptAt = this.#firstAttemptAt(message);
    try {
      await this.#serial.run(() => this.handler(event));
      message.ack();
      return;
    } catch (error) {
      const decision = this.retries.afterFailure(attempts, firstAttemptAt);
      const context = { err: error, durable: this.durable, eventId: event.id, deliveries: attempts, delayMs: decision.delayMs };
      if (decision.deadLetter) {
        if (await this.#file(message, { id: event.id, payload: eventPayload(event), error, attempts, firstAttemptAt }, context)) return;
      } else if (decision.exhausted) {
        this.logger?.error(context, 'event handler keeps failing past the retry policy and no dead-letter store is configured; retrying');
      } else {
        this.logger?.warn(context, 'event handler failed; retrying');
      }
      message.nak(decision.delayMs);
    }
  }

  /** Bytes that are not a domain event: redelivering them can never succeed, so they become a dead letter at once. */
  async #undecodable(message: JsMsg, error: Error): Promise<void> {
    const context = { err: error, durable: this.durable, seq: message.seq, subject: message.subject };
    if (!this.retries.store) {
      this.logger?.error(context, 'undecodable event dropped (no dead-letter store is configured)');
      message.term();
      return;
    }
    const id = message.headers?.get('Nats-Msg-Id') || `seq-${message.seq}`;
    const attempts = message.info.deliveryCount;
    if (await this.#file(message, { id, payload: rawPayload(message), error, attempts, firstAttemptAt: this.#firstAttemptAt(message) }, context)) return;
    message.nak(this.retries.afterFailure(attempts, this.#firstAttemptAt(message)).delayMs);
  }

  /**
   * Files the letter, then terminates the message so the server never redelivers it
   * and the consumer moves on. False when filing failed: the caller naks, so the
   * message is tried again rather than lost.
   */
  async #file(
    message: JsMsg,
    letter: { id: string; payload: Encoded; error: unknown; attempts: number; firstAttemptAt: number },
    context: Record<string, unknown>,
  ): Promise<boolean> {
    try {
      await this.retries.file({ durable: this.durable, ...letter });
    } catch (fileError) {
      this.logger?.error({ ...context, fileError }, 'delivery failed past the retry policy and the dead letter could not be filed; retrying');
      return false;
    }
    this.#firstAttempt = undefined;
    message.term();
    return true;
  }

  /** The first attempt this node saw of the message; a message first tried elsewhere (or before a restart) counts from now. */
  #firstAttemptAt(message: JsMsg): number {
    if (this.#firstAttempt?.seq !== message.seq) this.#firstAttempt = { seq: message.seq, at: this.retries.now() };
    return this.#firstAttempt.at;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, ms);
      timer.unref();
      this.#wake = finish;
    });
  }
}

type Decoded = { ok: true; event: DomainEvent } | { ok: false; error: Error };

function decodeEvent(message: JsMsg): Decoded {
  let value: unknown;
  try {
    value = message.json<unknown>();
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
  if (!isDomainEvent(value)) return { ok: false, error: new TypeError('the message is JSON but not a domain event') };
  return { ok: true, event: value };
}

/** An undecodable message as a letter keeps it: its subject, its stream sequence and its bytes, as text when they are UTF-8. */
function rawPayload(message: JsMsg): Encoded {
  const base = { subject: message.subject, streamSequence: message.seq };
  try {
    return { ...base, text: new TextDecoder('utf-8', { fatal: true }).decode(message.data) };
  } catch {
    return { ...base, base64: Buffer.from(message.data).toString('base64') };
  }
}

/** Updates what exists; creates it when the update finds nothing (`notFoundCode`). */
async function updateOrAdd<T>(update: () => Promise<T>, add: () => Promise<T>, notFoundCode: number): Promise<T> {
  try {
    return await update();
  } catch (error) {
    if (error instanceof JetStreamApiError && error.code === notFoundCode) return add();
    throw error;
  }
}

function supportsMultipleFilters(nc: NatsConnection): boolean {
  const [major = 0, minor = 0] = (nc.info?.version ?? '0.0.0').split('.').map(Number);
  return major > 2 || (major === 2 && minor >= 10);
}
