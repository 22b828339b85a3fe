/**
 * The gauges an actor system gives its metrics to read at scrape time: the depth of its
 * live actors' mailboxes by kind, and the actors with a timer armed and due.
 */
import test from 'ava';
import { TestClock } from '../../../actors/index.js';
import { PrometheusMetrics } from '../../../actors/metrics/index.js';
import { counterKind } from '../../support/counter-kind.js';
import { parseExposition, sampleValue } from '../../support/prometheus-text.js';
import { startTestSystem } from '../../support/test-node.js';

/** A test clock that moves without telling anyone: the scheduler only finds a due timer on its poll, as a busy node would late. */
class UnheardClock extends TestClock {
  override onAdvance(): () => void {
    return () => {};
  }
}

const counter = (id: string) => ({ kind: 'counter', id });

test('timers armed and due are counted at scrape time, and a timer found late is late in the histogram', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  const clock = new UnheardClock();
  const { system } = await startTestSystem({ kinds: [counterKind()], metrics, clock });
  t.teardown(() => system.drain());
  const scrape = async () => parseExposition(await metrics.metrics());

  let f = await scrape();
  t.deepEqual([sampleValue(f, 'peer_timers_armed'), sampleValue(f, 'peer_timers_due')], [0, 0]);
  await system.askAt(counter('bell'), { type: 'OPEN' });
  await system.askAt(counter('bell'), { type: 'ARM', ms: 30_000 });
  await system.askAt(counter('later'), { type: 'OPEN' });
  await system.askAt(counter('later'), { type: 'ARM', ms: 600_000 });
  f = await scrape();
  t.deepEqual([sampleValue(f, 'peer_timers_armed'), sampleValue(f, 'peer_timers_due')], [2, 0]);

  await clock.advance(45_000);
  f = await scrape();
  t.deepEqual([sampleValue(f, 'peer_timers_armed'), sampleValue(f, 'peer_timers_due')], [2, 1], 'one is due and not fired yet');

  await system.runDueTimers();
  f = await scrape();
  t.deepEqual([sampleValue(f, 'peer_timers_armed'), sampleValue(f, 'peer_timers_due')], [1, 0]);
  t.is(sampleValue(f, 'peer_timers_fired_total', { kind: 'counter' }), 1);
  t.is(sampleValue(f, 'peer_timer_lateness_seconds_bucket', { kind: 'counter', le: '10' }), 0);
  t.is(sampleValue(f, 'peer_timer_lateness_seconds_bucket', { kind: 'counter', le: '30' }), 1, 'fired 15 s after it was due');
});

test('mailbox depth by kind counts the messages waiting for live actors, and is zero once they are answered', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  const { system } = await startTestSystem({ kinds: [counterKind()], metrics });
  t.teardown(() => system.drain());
  await system.askAt(counter('busy'), { type: 'OPEN' });
  const depths: number[] = [];
  const asks = Promise.all(Array.from({ length: 200 }, (_, n) => system.askAt(counter('busy'), { type: 'ADD', n })));
  let done = false;
  void asks.then(() => (done = true));
  while (!done) depths.push(sampleValue(parseExposition(await metrics.metrics()), 'peer_mailbox_depth', { kind: 'counter' })!);
  await asks;
  t.true(Math.max(...depths) > 0, `a scrape saw messages waiting (${depths.join(', ')})`);
  t.is(sampleValue(parseExposition(await metrics.metrics()), 'peer_mailbox_depth', { kind: 'counter' }), 0);
});
