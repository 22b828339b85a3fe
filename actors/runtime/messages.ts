/** What travels to an actor, and how a caller asks. */
import type { EventObject } from 'xstate';

/** An event sent to an actor: a type and any plain payload. */
export type ActorEvent = EventObject & Record<string, unknown>;

export interface ActorMessage {
  /** De-duplication key: a retried message with the same id is applied once. */
  id: string;
  event: EventObject;
}

export interface AskOptions {
  /** Defaults to a fresh random id; pass one to make a retry safe across processes. */
  messageId?: string;
  /** Overall deadline for the ask, retries included. */
  timeoutMs?: number;
}

/** Event type the runtime uses to fire a durable timer; machines never see it. */
export const TIMER_EVENT = 'runtime.timer';

export interface TimerFireEvent extends EventObject {
  type: typeof TIMER_EVENT;
  timerId: string;
  dueAt: number;
}

export function isTimerFire(event: EventObject): event is TimerFireEvent {
  return event.type === TIMER_EVENT;
}

/** The message that fires a timer row; its id is the row's, so a timer fires once whoever delivers it (the node's scheduler, a test clock's advance). */
export function timerFireMessage(timer: { id: string; dueAt: number }): { id: string; event: TimerFireEvent & ActorEvent } {
  return { id: `timer:${timer.id}@${timer.dueAt}`, event: { type: TIMER_EVENT, timerId: timer.id, dueAt: timer.dueAt } };
}

/**
 * Runtime messages that change an actor's document without its machine: putting a
 * dead-lettered effect back in the outbox, re-arming a dead-lettered timer. They
 * travel like any message so they reach the node that holds the actor's shard.
 */
export const REQUEUE_EFFECT_EVENT = 'runtime.requeue-effect';
export const REARM_TIMER_EVENT = 'runtime.rearm-timer';

export function isRuntimeMaintenance(event: EventObject): boolean {
  return event.type === REQUEUE_EFFECT_EVENT || event.type === REARM_TIMER_EVENT;
}
