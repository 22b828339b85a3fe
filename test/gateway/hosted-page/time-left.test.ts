/** The payment step's countdown (gateway/hosted-page/client/time-left.ts). */
import test from 'ava';
import { timeLeft } from '../../../gateway/hosted-page/client/time-left.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

test('an hour or more reads as hours and minutes: a six-hour crypto window starts at 5 h 59 min', (t) => {
  t.is(timeLeft(6 * HOUR - 3 * SECOND), '5 h 59 min');
  t.is(timeLeft(6 * HOUR), '6 h 0 min');
  t.is(timeLeft(HOUR), '1 h 0 min');
  t.is(timeLeft(HOUR + 59 * MINUTE + 59 * SECOND), '1 h 59 min');
  t.is(timeLeft(30 * HOUR + 5 * MINUTE), '30 h 5 min');
});

test('in the last hour, minutes and seconds', (t) => {
  t.is(timeLeft(HOUR - 3 * SECOND), '59:57');
  t.is(timeLeft(5 * MINUTE + 7 * SECOND), '5:07');
  t.is(timeLeft(999), '0:00');
});

test('a window that has closed reads 0:00, never a negative time', (t) => {
  t.is(timeLeft(0), '0:00');
  t.is(timeLeft(-5 * MINUTE), '0:00');
});
