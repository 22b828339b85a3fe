/**
 * Webhook deliveries on a sandbox test clock (docs/test-clocks.md, docs/webhooks.md): a
 * delivery of an event of an order on a clock runs on that clock, so advancing it runs
 * the retry schedule, each attempt at its clock time, and the node's own time moves none.
 */
import test from 'ava';
import { retryWaitMs } from '../../../machines/webhook/index.js';
import { answerOf, isoNow, placeOrder } from '../../support/checkout.js';
import { signaturesValid } from '../../support/webhook-receiver.js';
import { webhookWorld } from '../../support/webhooks.js';

const HOUR = 60 * 60_000;
const OUTAGE = 72 * HOUR;

test('a sandbox order on a test clock: advancing the clock 72 hours runs its delivery’s retries on the schedule, at clock times', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  const { gateway, key } = world;
  world.receiver.respond = () => ({ status: 503, body: 'down for maintenance' });
  // A month ahead of the node, so a clock time and a node time cannot be mistaken for each other.
  const clock = answerOf(await gateway.request('POST', '/api/v1/test-clocks', { key, body: { frozenTime: isoNow(gateway, 30 * 24 * HOUR) } }), 201, 'clock');
  const start = Date.parse(clock.frozenTime);
  const nodeStart = gateway.clock.now();
  await placeOrder(gateway, key, { requestedUsdcAmount: '25', testClockId: clock.id });
  await world.receiver.until(() => world.receiver.requests.length === 1);
  await gateway.node.system.effectsIdle();

  const [delivery] = await world.deliveries();
  t.like(delivery, { status: 'PENDING', attempts: 1, createdAt: clock.frozenTime, lastAttemptAt: clock.frozenTime });
  t.is(delivery.nextRetryAt, new Date(start + retryWaitMs(delivery.id, 1)!).toISOString(), 'the first retry is due on the clock');

  // Three days of the node's own time fire nothing: the retries wait for the clock.
  await world.advance(OUTAGE);
  t.is(world.receiver.requests.length, 1);

  answerOf(
    await gateway.request('POST', `/api/v1/test-clocks/${clock.id}/advance`, { key, body: { frozenTime: new Date(start + OUTAGE).toISOString() } }),
    200,
    'advance',
  );
  await gateway.node.system.effectsIdle();
  t.like(answerOf(await gateway.request('GET', `/api/v1/test-clocks/${clock.id}`, { key }), 200, 'clock'), { status: 'ready' });

  // Attempt n+1 comes retryWaitMs(id, n) after attempt n, on the clock, while that falls within the 72 hours.
  const expected = [start];
  for (let attempt = 1; ; attempt++) {
    const next = expected.at(-1)! + retryWaitMs(delivery.id, attempt)!;
    if (next > start + OUTAGE) break;
    expected.push(next);
  }
  t.true(expected.length >= 10, `a 72-hour outage spans at least ten attempts (${expected.length})`);
  const detail = answerOf(await gateway.request('GET', `/api/v1/webhooks/${world.webhook.id}/deliveries/${delivery.id}`, { key }), 200, 'delivery');
  t.deepEqual(
    detail.attemptHistory.map((attempt: { at: string }) => attempt.at),
    expected.map((at) => new Date(at).toISOString()),
    'every retry made at its due time on the clock',
  );
  t.like(detail, { status: 'PENDING', attempts: expected.length, responseCode: 503 });
  t.is(detail.nextRetryAt, new Date(expected.at(-1)! + retryWaitMs(delivery.id, expected.length)!).toISOString());
  t.is(world.receiver.requests.length, expected.length);
  for (const request of world.receiver.requests) {
    t.deepEqual(signaturesValid(request, world.webhook.secret), { peer: true, standard: true });
    // Signed at the node's time: a receiver checks the timestamp against its own clock, not the test clock.
    t.true([nodeStart, gateway.clock.now()].map((ms) => Math.floor(ms / 1000)).includes(Number(request.headers['x-webhook-timestamp'])));
  }

  world.receiver.respond = () => 200;
  answerOf(await gateway.request('POST', `/api/v1/test-clocks/${clock.id}/advance`, { key, body: { frozenTime: detail.nextRetryAt } }), 200, 'advance');
  await gateway.node.system.effectsIdle();
  t.is(world.receiver.delivered().length, 1, 'the receiver back up gets the event at its next retry');
  const [after] = await world.deliveries();
  t.like(after, { status: 'DELIVERED', attempts: expected.length + 1, lastAttemptAt: detail.nextRetryAt });
});
