/**
 * Domain events: what actors announce after a turn is saved (ORDER_CREATED,
 * PAYMENT_SETTLED, …). Publishing is at least once and de-duplicated by event id;
 * consumers are durable and named, so a webhook dispatcher or a projection resumes
 * where it stopped and sees each event at least once.
 */
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

/** A handler that throws gets the event again later, with backoff. */
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

/** Subject of an event on a JetStream stream: `<ns>.events.<kind>.<id>.<TYPE>`. */
export function eventSubject(namespace: string, event: Pick<DomainEvent, 'actor' | 'type'>): string {
  return `${namespace}.events.${event.actor.kind}.${event.actor.id}.${event.type}`;
}
