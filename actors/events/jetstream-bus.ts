/**
 * Event bus on one JetStream stream per namespace (`<NS>_EVENTS`, subjects
 * `<ns>.events.>`). JetStream drops a republished event id inside the duplicate
 * window, and each named consumer is a durable pull consumer whose position lives
 * on the server. `max_ack_pending: 1` is what makes delivery one at a time and in
 * order: a nak'd event stays pending through its backoff, so nothing overtakes it.
 */
import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
} from '@nats-io/jetstream';
import type {
  Consumer,
  ConsumerMessages,
  ConsumerUpdateConfig,
  JetStreamClient,
  JetStreamManager,
  JsMsg,
  StreamUpdateConfig,
} from '@nats-io/jetstream';
import { nanos } from '@nats-io/transport-node';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Logger } from 'pino';
import { eventSubject } from './event-bus.js';
import type { ConsumeOptions, DomainEvent, EventBus, EventBusStatus, EventHandler, Subscription } from './event-bus.js';

export interface JetStreamBusOptions {
  namespace: string;
  storage?: 'file' | 'memory';
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
    return new JetStreamBus(nc, jetstream(nc), jsm, namespace, stream, options.logger);
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
    const subscription = new JetStreamSubscription(consumer, matcher(options), handler, this.logger, durable);
    this.#subscriptions.add(subscription);
    void subscription.done.finally(() => this.#subscriptions.delete(subscription));
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

class JetStreamSubscription implements Subscription {
  readonly done: Promise<void>;
  #stopping = false;
  #messages: ConsumerMessages | undefined;
  #wake: (() => void) | undefined;

  constructor(
    private readonly consumer: Consumer,
    private readonly matches: (event: DomainEvent) => boolean,
    private readonly handler: EventHandler,
    private readonly logger: Logger | undefined,
    private readonly durable: string,
  ) {
    this.done = this.#run();
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    // Unsubscribes at once so the server sends nothing more; a handler already running still finishes and acks.
    void this.#messages?.close();
    this.#wake?.();
    await this.done;
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
    let event: DomainEvent;
    try {
      event = message.json<DomainEvent>();
    } catch (error) {
      // Redelivering bytes that are not JSON can never succeed and would block the consumer for good.
      this.logger?.error({ err: error, durable: this.durable, seq: message.seq }, 'undecodable event dropped');
      message.term();
      return;
    }
    if (!this.matches(event)) {
      message.ack();
      return;
    }
    try {
      await this.handler(event);
      message.ack();
    } catch (error) {
      const delayMs = retryDelayMs(message.info.deliveryCount);
      this.logger?.warn({ err: error, durable: this.durable, eventId: event.id, deliveries: message.info.deliveryCount, delayMs }, 'event handler failed; retrying');
      message.nak(delayMs);
    }
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

function matcher({ kinds, types }: ConsumeOptions): (event: DomainEvent) => boolean {
  const kindSet = kinds?.length ? new Set(kinds) : undefined;
  const typeSet = types?.length ? new Set(types) : undefined;
  return (event) => (kindSet?.has(event.actor.kind) ?? true) && (typeSet?.has(event.type) ?? true);
}
