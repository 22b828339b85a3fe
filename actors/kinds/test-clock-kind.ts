/**
 * The `test-clock` actor kind (docs/test-clocks.md): one per sandbox test clock
 * (`clk_…`). Its view carries the clock's time as `nowMs`, which the runtime reads for
 * the turns of the actors attached to it (actors/runtime/test-clock-time.ts). Its one
 * effect is the advance: every timer of the attached actors that the target passes is
 * delivered in due order, the clock moved to each due time first; the effects those
 * firings queue run before the clock moves on, and timers the firings or their effects
 * set are found by the next look, until none is due by the target.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { CommandRejectedError } from '../errors.js';
import { advanceRefusal, testClockMachine, type TestClockContext, type TestClockEvent, type TestClockStatus } from '../../machines/test-clock/index.js';
import { defineKind, withEffects, type EffectHandler, type EffectParams, type Rejection } from '../runtime/actor-kind.js';
import { timerFireMessage } from '../runtime/messages.js';
import { firesAt } from '../runtime/actor-document.js';
import { TEST_CLOCK_KIND, type ClockTimers } from '../runtime/test-clock-time.js';

/**
 * Distinct due times one advance visits at most. A machine that re-arms a timer with no
 * delay would otherwise keep an advance going for ever; past it the clock settles on its
 * target and the rest is left for the next advance.
 */
const MAX_STEPS = 10_000;

/**
 * How long one step waits for the effects of the attached actors at most: longer than
 * a webhook attempt's time-out (10 s by default). Past it the advance moves on, and what
 * is still running reports at whatever time the clock reads then.
 */
const SETTLE_LIMIT_MS = 30_000;

export function testClockView(snapshot: AnyMachineSnapshot) {
  const context = snapshot.context as TestClockContext;
  const status = snapshot.value as TestClockStatus;
  return {
    clock: {
      id: context.id,
      name: context.name,
      frozenTime: context.frozenTime,
      status: status === 'ADVANCING' ? ('advancing' as const) : ('ready' as const),
      advancingTo: context.advancingTo,
      createdAt: context.createdAt,
    },
    merchantId: context.merchantId,
    status,
    // The runtime's contract (test-clock-time.ts): the attached actors' turns run at this time.
    nowMs: Date.parse(context.frozenTime),
    createdAt: context.createdAt,
  };
}

export type TestClockView = ReturnType<typeof testClockView>;

function refusal(snapshot: AnyMachineSnapshot, event: TestClockEvent): Rejection | null {
  if (event.type !== 'ADVANCE') return null;
  const context = snapshot.context as TestClockContext;
  if (snapshot.value === 'ADVANCING') return { code: 'TEST_CLOCK_ADVANCING', message: `test clock ${context.id} is still advancing to ${context.advancingTo}` };
  const refused = advanceRefusal(context, event.frozenTime);
  return refused;
}

/** The advance: one serialized run per clock, at least once; each step is idempotent by its message id. */
function advanceClock(timers: ClockTimers): EffectHandler<EffectParams<typeof testClockMachine, 'advanceClock'>> {
  return async ({ clockId, to }, context) => {
    const clock = { kind: TEST_CLOCK_KIND, id: clockId };
    const target = Date.parse(to);
    try {
      for (let step = 0; step < MAX_STEPS; step++) {
        // What the last firings queued runs at their time: a report may arm the next timer (a webhook's retry).
        if (!(await timers.effectsSettledOnClock(clockId, SETTLE_LIMIT_MS))) {
          context.logger.warn({ clockId, step }, 'effects of actors on the test clock still running; the advance moves on without them');
        }
        const due = await timers.dueOnClock(clockId, target);
        if (due.length === 0) break;
        const at = firesAt(due[0]!.timer);
        await context.askAt(clock, { type: 'TICK', to: new Date(at).toISOString() }, { messageId: `${context.effectId}:tick:${at}` });
        // Timers due at one instant fire together, as the node's scheduler would fire them.
        await Promise.all(
          due
            .filter(({ timer }) => firesAt(timer) === at)
            .map(({ address, timer }) => {
              const { id, event } = timerFireMessage(timer);
              return context.askAt(address, event, { messageId: id });
            }),
        );
      }
      await context.askAt(clock, { type: 'ADVANCED' }, { messageId: `${context.effectId}:advanced` });
    } catch (error) {
      // The clock was deleted meanwhile, or this is a run again of an advance that has ended: nothing is left to do.
      if (error instanceof CommandRejectedError && error.code === 'EVENT_NOT_ACCEPTED' && error.message.startsWith(`${TEST_CLOCK_KIND} ${clockId}`)) return;
      throw error;
    }
  };
}

/** The test clock kind as callers address it; a node registers `testClockKindOn(timers)`, which runs its advances. */
export const testClockKind = defineKind({
  name: TEST_CLOCK_KIND,
  machine: testClockMachine,
  machineVersion: 1,
  createdBy: ['CREATE'],
  view: (snapshot) => testClockView(snapshot),
  check: (snapshot, event) => refusal(snapshot, event as TestClockEvent),
  viewIndexes: [{ key: { 'view.merchantId': 1, 'view.status': 1, 'view.createdAt': -1 }, name: 'test_clock_by_merchant_newest' }],
});

export function testClockKindOn(timers: ClockTimers): typeof testClockKind {
  return withEffects(testClockKind, { advanceClock: advanceClock(timers) });
}
