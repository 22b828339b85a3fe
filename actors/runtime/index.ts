/**
 * The actor runtime: kinds, turns, mailboxes, durable timers, the outbox and the
 * system that hosts live actors on a node, dead letters (ARCHITECTURE, Actors 1 to 9).
 */
export * from './actor-document.js';
export * from './actor-kind.js';
export * from './actor-system.js';
export * from './messages.js';
export * from './dead-letters.js';
export * from './retry-policy.js';
export { MESSAGE_REFUSED, type MessageRefusedEvent } from './outbox-runner.js';
export type { Fence } from './activation.js';
export type { SingletonRole } from './singletons.js';
export { EVENT_EFFECT, TELL_EFFECT } from './turn.js';
