/**
 * Test clocks (docs/test-clocks.md): an actor whose document names a `clockId` runs on
 * the time of that `test-clock` actor instead of the node's clock. Its turns read that
 * time, its effects report at it (EffectContext.actorNow), the node's timer scheduler
 * leaves its timers alone, and only advancing the clock fires them. The runtime knows
 * a test clock only by this contract: an actor of kind `test-clock` whose view carries
 * its time as `nowMs`.
 */
import type { EventObject } from 'xstate';
import type { ActorAddress } from '../address.js';
import type { TimerRow } from './actor-document.js';

export const TEST_CLOCK_KIND = 'test-clock';

/** A timer of an actor attached to a test clock, due by the time an advance reaches. */
export interface AttachedTimer {
  address: ActorAddress;
  timer: TimerRow;
}

/** What an advance needs of the runtime. */
export interface ClockTimers {
  /** The timers of the clock's actors due by `until`, earliest first. */
  dueOnClock(clockId: string, until: number): Promise<AttachedTimer[]>;
  /**
   * Resolves true once no actor on the clock has an effect left to run (one waiting to
   * retry after a failure, on the node's time, does not count), false if some still had
   * after `limitMs` of real time.
   */
  effectsSettledOnClock(clockId: string, limitMs: number): Promise<boolean>;
}

/** The clock an actor's turns run on: its document's, or for a creating event the one it attaches the new actor to. */
export function clockOf(doc: { clockId?: string } | null, event: EventObject): string | null {
  return doc ? (doc.clockId ?? null) : attachedClock(event);
}

/** The clock a creating event attaches its new actor to: its `clockId`, which the machine never sees. */
export function attachedClock(event: EventObject): string | null {
  const clockId = (event as { clockId?: unknown }).clockId;
  return typeof clockId === 'string' ? clockId : null;
}

/** A test clock's time, from its view. */
export function clockTimeOf(view: Record<string, unknown>): number {
  if (typeof view.nowMs !== 'number') throw new Error('a test-clock view must carry its time as nowMs');
  return view.nowMs;
}
