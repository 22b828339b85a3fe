/**
 * The actor runtime: kinds, turns, mailboxes, durable timers, the outbox and the
 * system that hosts live actors on a node (ARCHITECTURE, Actors 1 to 8).
 */
export * from './actor-document.js';
export * from './actor-kind.js';
export * from './actor-system.js';
export * from './messages.js';
export { EVENT_EFFECT, TELL_EFFECT } from './turn.js';
