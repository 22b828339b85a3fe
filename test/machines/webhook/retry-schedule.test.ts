import test from 'ava';
import { JITTER, MAX_ATTEMPTS, RETRY_WAITS_MS, retryWaitMs } from '../../../machines/webhook/index.js';

const HOUR = 60 * 60 * 1000;

test('twelve attempts whose waits add up to a little over three days', (t) => {
  t.is(MAX_ATTEMPTS, 12);
  t.is(
    RETRY_WAITS_MS.reduce((sum, wait) => sum + wait, 0),
    75.6 * HOUR,
  );
  t.is(retryWaitMs('whd_x', MAX_ATTEMPTS), undefined, 'no wait after the last attempt');
});

test('each wait is stretched by at most a tenth, never shortened, the same way every time for one delivery, differently across deliveries', (t) => {
  for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
    const base = RETRY_WAITS_MS[attempt - 1]!;
    const waits = Array.from({ length: 200 }, (_, index) => retryWaitMs(`whd_${index}`, attempt)!);
    t.true(
      waits.every((wait) => wait >= base && wait <= base * (1 + JITTER)),
      `attempt ${attempt}`,
    );
    t.true(new Set(waits).size > 100, `attempt ${attempt} spreads`);
    t.is(retryWaitMs('whd_same', attempt), retryWaitMs('whd_same', attempt));
  }
});

test('whatever the jitter, a delivery is still being tried three days after its first attempt', (t) => {
  // The promise of docs/webhooks.md: a receiver down for three days gets every event once it is back.
  for (let index = 0; index < 2_000; index++) {
    const id = `whd_${index.toString(36)}`;
    let total = 0;
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) total += retryWaitMs(id, attempt)!;
    if (total <= 72 * HOUR) return t.fail(`${id}: the last attempt comes ${(total / HOUR).toFixed(2)} h after the first`);
  }
  t.pass();
});
