/**
 * actors/history: reading the record of every turn (ARCHITECTURE, Actors §10) for the
 * engineers' inspector: an actor's turns, paged, and the actor as it was after any of
 * them, from the stored snapshot or by replaying its events through the pure machine.
 * The runtime writes the record (runtime/turn-record.ts, runtime/history-writer.ts).
 */
export { ActorHistory } from './actor-history.js';
export type { TravelledTo, TurnPage } from './actor-history.js';
export { replay, replayStart } from './time-travel.js';
export type { Replayed } from './time-travel.js';
