/** machines/test-clock: a sandbox test clock the merchant advances, firing its attached actors' timers. */
export { advanceRefusal, MAX_ADVANCE_MS, testClockMachine } from './test-clock-machine.js';
export type { TestClockContext, TestClockEvent, TestClockInput, TestClockStatus } from './test-clock-machine.js';
