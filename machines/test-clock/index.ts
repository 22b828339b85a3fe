/** machines/test-clock: a sandbox test clock the merchant advances, firing its attached actors' timers. */
export * from './test-clock-machine.js';
