/**
 * The test clock model's inputs: a named clock frozen at a time, and what the merchant (an
 * advance, a delete) and its own advance effect (TICK to each due time, ADVANCED) send it.
 * Times are counted from the clock's own: an advance a day on, one exactly at the two-year
 * limit, and the three the kind refuses (to the clock's time, before it, a millisecond past
 * the limit); ticks behind the clock, repeating its time, on the way to the target, at the
 * target and past it (clamped), so every branch of the refusal and of TICK's clamp is met;
 * and a delete of a ready clock and of one mid-advance.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { testClockKindOn } from '../../../actors/kinds/index.js';
import { MAX_ADVANCE_MS, type TestClockContext, type TestClockEvent } from '../../../machines/test-clock/index.js';
import { isoAfter } from '../../../machines/iso-time.js';
import { sample, type Variant } from '../../support/model-paths.js';

/** The advance effect is stood in for by the runner: nothing looks up attached timers. */
export const TEST_CLOCK_KIND = testClockKindOn({
  dueOnClock: () => Promise.reject(new Error('the model tests never look up the timers on a clock')),
  effectsSettledOnClock: () => Promise.reject(new Error('the model tests never wait for the effects on a clock')),
});

const CREATED_AT = '2026-11-23T12:00:00.000Z';
const AT = '2026-11-23T12:30:00.000Z';
const DAY_MS = 24 * 60 * 60 * 1000;
const MINUTE_MS = 60 * 1000;

export const TEST_CLOCK_VARIANTS: Variant[] = [
  {
    name: 'named, frozen in the past',
    id: 'clk_model',
    create: { type: 'CREATE', id: 'clk_model', merchantId: 'mer_1', name: 'Renewals', frozenTime: '2026-01-01T00:00:00.000Z', at: CREATED_AT },
  },
];

/** Halfway between two ISO times, to the millisecond. */
const between = (from: string, to: string): string => new Date(Math.floor((Date.parse(from) + Date.parse(to)) / 2)).toISOString();

export function testClockEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const { frozenTime, advancingTo } = snapshot.context as TestClockContext;
  // Where ticks head: the advance under way, or (offered where no TICK is taken) the clock's own time.
  const target = advancingTo ?? frozenTime;
  const events: TestClockEvent[] = [
    sample('a day', { type: 'ADVANCE', frozenTime: isoAfter(frozenTime, DAY_MS), at: AT }),
    sample('at the limit', { type: 'ADVANCE', frozenTime: isoAfter(frozenTime, MAX_ADVANCE_MS), at: AT }),
    // Refused by the kind (TEST_CLOCK_TIME_NOT_LATER, TEST_CLOCK_ADVANCE_TOO_FAR; TEST_CLOCK_ADVANCING while one runs): never taken.
    sample('not later', { type: 'ADVANCE', frozenTime, at: AT }),
    sample('earlier', { type: 'ADVANCE', frozenTime: isoAfter(frozenTime, -DAY_MS), at: AT }),
    sample('too far', { type: 'ADVANCE', frozenTime: isoAfter(frozenTime, MAX_ADVANCE_MS + 1), at: AT }),
    sample('behind the clock', { type: 'TICK', to: isoAfter(frozenTime, -MINUTE_MS) }),
    sample('repeated', { type: 'TICK', to: frozenTime }),
    sample('on the way', { type: 'TICK', to: between(frozenTime, target) }),
    sample('at the target', { type: 'TICK', to: target }),
    sample('past the target', { type: 'TICK', to: isoAfter(target, MINUTE_MS) }),
    { type: 'ADVANCED' },
    // Mid-advance it also drops the target, and the advance stops at its next step: labelled apart so a path takes it.
    advancingTo === null ? { type: 'DELETE', at: AT } : sample('mid-advance', { type: 'DELETE', at: AT }),
  ];
  return events;
}

/** What the kind's refusal and TICK's clamp read besides the event (counted from the clock's time): whether the clock reached its target. */
export function testClockAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const { frozenTime, advancingTo } = snapshot.context as TestClockContext;
  return { value: snapshot.value, atTarget: advancingTo !== null && frozenTime === advancingTo };
}
