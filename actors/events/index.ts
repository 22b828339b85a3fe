/**
 * Domain-event bus: the EventBus interface actors publish to after a saved turn,
 * with an in-process adapter for the embedded all-in-one node (MemoryBus) and a
 * NATS JetStream adapter for clustered deployments (JetStreamBus).
 */
export { busDeadLetterKey, BusDeadLetters, consumerNotRunning, eventMatcher, eventPayload, eventSubject, isDomainEvent, Serial } from './event-bus.js';
export type {
  BusDeadLetterOptions,
  BusFailureDecision,
  BusRedelivery,
  ConsumeOptions,
  DomainEvent,
  EventBus,
  EventBusStatus,
  EventHandler,
  Subscription,
} from './event-bus.js';
export { MemoryBus } from './memory-bus.js';
export { BusJournal } from './bus-journal.js';
export type { MemoryBusOptions } from './memory-bus.js';
export { JetStreamBus, eventStreamName } from './jetstream-bus.js';
export type { JetStreamBusOptions } from './jetstream-bus.js';
