/**
 * Model-based tests of the test clock machine on the `test-clock` kind. No API document
 * has a table for test clocks (they are ours: docs/test-clocks.md): each step is checked
 * against the machine, and the view's status (READY, ADVANCING or DELETED, with the
 * clock's `ready` or `advancing`) and its times (`frozenTime`, the `nowMs` the attached
 * actors run at, `advancingTo`) against its state. The advance effect is stood in for;
 * its TICK and ADVANCED reports are sent by the paths.
 */
import test from 'ava';
import type { TestClockView } from '../../../actors/kinds/index.js';
import type { TestClockContext } from '../../../machines/test-clock/index.js';
import type { MachineModel } from '../../support/model-paths.js';
import { stateName } from '../../support/model-machine.js';
import { modelTests } from '../../support/model-tests.js';
import { TEST_CLOCK_KIND, TEST_CLOCK_VARIANTS, testClockAbstraction, testClockEvents } from './test-clock-events.js';

/** A status and the times beside it, as one string: what the machine's state says, and what the view shows. */
const shown = (status: string, clockStatus: string, frozenTime: string, advancingTo: string | null) =>
  `${status} (${clockStatus}) at ${frozenTime}, advancing to ${advancingTo ?? 'nothing'}`;

const model: MachineModel = {
  name: 'test-clock',
  kind: TEST_CLOCK_KIND,
  variants: TEST_CLOCK_VARIANTS,
  events: testClockEvents,
  abstract: testClockAbstraction,
  // A deleted clock is hidden from the API, so its clock reads `ready`: only ADVANCING reads `advancing`.
  statusOf: (snapshot) => {
    const { frozenTime, advancingTo } = snapshot.context as TestClockContext;
    const status = stateName(snapshot.value);
    return shown(status, status === 'ADVANCING' ? 'advancing' : 'ready', frozenTime, advancingTo);
  },
  viewStatus: (view) => {
    const { clock, status, nowMs } = view as unknown as TestClockView;
    // The attached actors' turns run at nowMs: it must be the clock's frozenTime.
    const time = nowMs === Date.parse(clock.frozenTime) ? clock.frozenTime : `${clock.frozenTime} but nowMs ${nowMs}`;
    return shown(status, clock.status, time, clock.advancingTo);
  },
  unreachable: {
    'test-clock.DELETED|DELETE|0':
      'a forbidden transition: it keeps the root DELETE off a deleted clock, so the runtime (snapshot.can) refuses a second DELETE with EVENT_NOT_ACCEPTED',
  },
};

modelTests(test, model);
