/**
 * A sandbox test clock (docs/test-clocks.md): a frozen time that moves only when the
 * merchant advances it. Advancing is one effect (`advanceClock`) that fires, in due
 * order, the timers of the actors attached to the clock, moving the clock to each due
 * time first (TICK) so every turn runs at its own due time, then settles on the target
 * (ADVANCED). While it runs the clock is ADVANCING and takes no other advance. A
 * deleted clock keeps its document, so its attached actors keep reading its last time.
 */
import { assign, setup } from 'xstate';
import { isoAfter } from '../iso-time.js';

/** How far one advance may move a clock: Stripe's limit is two intervals of a year, ours two years. */
export const MAX_ADVANCE_MS = 2 * 365 * 24 * 60 * 60 * 1000;

export type TestClockStatus = 'READY' | 'ADVANCING' | 'DELETED';

export interface TestClockInput {
  id: string;
  merchantId: string;
  name: string | null;
  /** ISO time the clock starts frozen at. */
  frozenTime: string;
  at: string;
}

export interface TestClockContext extends Omit<TestClockInput, 'at'> {
  /** Where the advance under way is going; null when none is. */
  advancingTo: string | null;
  createdAt: string;
  deletedAt: string | null;
}

export type TestClockEvent =
  | ({ type: 'CREATE' } & TestClockInput)
  | { type: 'ADVANCE'; frozenTime: string; at: string }
  | { type: 'TICK'; to: string }
  | { type: 'ADVANCED' }
  | { type: 'DELETE'; at: string };

/** Why an advance to `to` is refused, or null: it must move the clock forward, and not by more than MAX_ADVANCE_MS. */
export function advanceRefusal(
  context: TestClockContext,
  to: string,
): { code: 'TEST_CLOCK_TIME_NOT_LATER' | 'TEST_CLOCK_ADVANCE_TOO_FAR'; message: string } | null {
  if (to <= context.frozenTime) return { code: 'TEST_CLOCK_TIME_NOT_LATER', message: `frozenTime must be later than the clock's ${context.frozenTime}` };
  const limit = isoAfter(context.frozenTime, MAX_ADVANCE_MS);
  if (to > limit) return { code: 'TEST_CLOCK_ADVANCE_TOO_FAR', message: `frozenTime may be at most two years after the clock's time: ${limit}` };
  return null;
}

const latest = (a: string, b: string) => (a > b ? a : b);
const earliest = (a: string, b: string) => (a < b ? a : b);

export const testClockMachine = setup({
  types: { context: {} as TestClockContext, events: {} as TestClockEvent, input: {} as TestClockInput },
  actions: {
    // Effect: run by the test-clock kind after the turn is written (actors/kinds/test-clock-kind.ts).
    advanceClock: (_, _params: { clockId: string; to: string }) => {},
  },
}).createMachine({
  id: 'test-clock',
  context: ({ input }) => ({
    id: input.id,
    merchantId: input.merchantId,
    name: input.name,
    frozenTime: input.frozenTime,
    advancingTo: null,
    createdAt: input.at,
    deletedAt: null,
  }),
  initial: 'READY',
  on: {
    DELETE: { target: '.DELETED', actions: assign(({ event }) => ({ deletedAt: event.at, advancingTo: null })) },
  },
  states: {
    READY: {
      on: {
        ADVANCE: { target: 'ADVANCING', actions: assign(({ event }) => ({ advancingTo: event.frozenTime })) },
      },
    },
    ADVANCING: {
      entry: { type: 'advanceClock', params: ({ context }) => ({ clockId: context.id, to: context.advancingTo! }) },
      on: {
        // Never back, nor past the target: a tick repeated by an advance run again changes nothing.
        TICK: { actions: assign(({ context, event }) => ({ frozenTime: latest(context.frozenTime, earliest(event.to, context.advancingTo!)) })) },
        ADVANCED: { target: 'READY', actions: assign(({ context }) => ({ frozenTime: context.advancingTo!, advancingTo: null })) },
      },
    },
    DELETED: {
      // Nothing moves a deleted clock: an advance still running stops at its next step.
      on: { DELETE: {} },
    },
  },
});
