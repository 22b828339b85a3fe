/**
 * The actor runtime: kinds, turns, mailboxes, durable timers, the outbox and the
 * system that hosts live actors on a node, dead letters, the history of turns
 * (ARCHITECTURE, Actors 1 to 10).
 */
export { actorCollectionName, actorCollectionSpec, firesAt, nextTimerAt, outboxDueAt, outboxFields } from './actor-document.js';
export type { ActorDocument, OutboxEntry, TimerRow } from './actor-document.js';
export { askByKind, defineKind, withEffects } from './actor-kind.js';
export type {
  ActorKind,
  AnyActorKind,
  AskAddress,
  AskKind,
  CommandOf,
  CreationOf,
  EffectContext,
  EffectHandler,
  EffectHandlers,
  EffectName,
  EffectParams,
  InputCreation,
  Rejection,
  ReplyOf,
  SnapshotOf,
  ViewOf,
} from './actor-kind.js';
export { ActorSystem } from './actor-system.js';
export type { ActorSystemOptions } from './actor-system.js';
export { isRuntimeMaintenance, isTimerFire, REARM_TIMER_EVENT, REQUEUE_EFFECT_EVENT, TIMER_EVENT, timerFireMessage } from './messages.js';
export type { ActorEvent, ActorMessage, AskOptions, TimerFireEvent } from './messages.js';
export { DEAD_LETTER_SOURCES, DEAD_LETTER_STATUSES, DEAD_LETTERS_COLLECTION, deadLetterError, DeadLetterStore } from './dead-letters.js';
export type { DeadLetter, DeadLetterError, DeadLetterQuery, DeadLetterRetrier, DeadLetterSource, DeadLetterStatus, NewDeadLetter } from './dead-letters.js';
export { afterFailure, DEFAULT_RETRY_POLICY } from './retry-policy.js';
export type { RetryDecision, RetryPolicy } from './retry-policy.js';
export { EFFECT_FAILED, MESSAGE_REFUSED, type EffectFailedEvent, type MessageRefusedEvent } from './outbox-runner.js';
export type { Fence } from './activation.js';
export type { SingletonRole } from './singletons.js';
export { EVENT_EFFECT, TELL_EFFECT } from './turn.js';
export { eventType, recordsOf, turnRecord, turnRecordId } from './turn-record.js';
export type { TurnEffects, TurnRecord } from './turn-record.js';
export { HISTORY_COLLECTION, TurnHistory } from './turn-history.js';
export { attachedClock, clockOf, clockTimeOf, TEST_CLOCK_KIND } from './test-clock-time.js';
export type { AttachedTimer, ClockTimers } from './test-clock-time.js';
