/**
 * The actor runtime: kinds, turns, mailboxes, durable timers, the outbox and the
 * system that hosts live actors on a node, dead letters, the history of turns
 * (ARCHITECTURE, Actors 1 to 10).
 */
export * from './actor-document.js';
export * from './actor-kind.js';
export * from './actor-system.js';
export * from './messages.js';
export * from './dead-letters.js';
export * from './retry-policy.js';
export { EFFECT_FAILED, MESSAGE_REFUSED, type EffectFailedEvent, type MessageRefusedEvent } from './outbox-runner.js';
export type { Fence } from './activation.js';
export type { SingletonRole } from './singletons.js';
export { EVENT_EFFECT, TELL_EFFECT } from './turn.js';
export * from './turn-record.js';
export * from './turn-history.js';
export * from './test-clock-time.js';
