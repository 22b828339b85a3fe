import test from 'ava';
import { answerOf, placeOrder, startPayment } from '../../support/checkout.js';
import { signaturesValid } from '../../support/webhook-receiver.js';
import { webhookWorld } from '../../support/webhooks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A sandbox order paid through the simulator: ORDER_CREATED, PAYMENT_CREATED, PAYMENT_SETTLED, ORDER_FULFILLED. */
async function paidSandboxOrder(world: Awaited<ReturnType<typeof webhookWorld>>) {
  const order = await placeOrder(world.gateway, world.key);
  const payment = await startPayment(order);
  answerOf(await order.customer('POST', `/payments/${payment.id}/simulate`), 200, 'simulate');
  return { order, payment };
}

test('every event of a paid order arrives once, in the order it happened, signed with both schemes', async (t) => {
  const world = await webhookWorld(t, { body: { customHeaders: [{ key: 'X-Shop-Token', value: 'shop-123' }] } });
  const { order, payment } = await paidSandboxOrder(world);
  await world.receiver.until(() => world.receiver.delivered().length >= 4, 10_000, 'four events');

  const delivered = world.receiver.delivered();
  t.deepEqual(
    delivered.map((event) => event.type),
    ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED'],
  );
  t.is(new Set(delivered.map((event) => event.id)).size, 4, 'each event has its own id');
  for (const request of world.receiver.requests) {
    t.deepEqual(signaturesValid(request, world.webhook.secret), { peer: true, standard: true }, `signatures of ${JSON.parse(request.body).type}`);
    t.is(request.headers['x-webhook-id'], JSON.parse(request.body).id);
    t.is(request.headers['webhook-id'], JSON.parse(request.body).id);
    t.is(request.headers['content-type'], 'application/json');
    t.is(request.headers['x-shop-token'], 'shop-123', 'custom headers arrive');
    t.is(request.path, '/hooks');
  }
  const [created, paymentCreated, settled, fulfilled] = delivered as [any, any, any, any];
  t.is(created.data.order.id, order.id);
  t.is(created.data.order.status, 'CREATED');
  t.is(created.data.payment, null);
  t.deepEqual({ refund: created.data.refund, paymentBridge: created.data.paymentBridge }, { refund: null, paymentBridge: null });
  t.is(paymentCreated.data.payment.id, payment.id);
  t.is(paymentCreated.data.order.id, order.id, 'a payment event carries its order too');
  t.is(settled.data.payment.status, 'SETTLED');
  t.true(Array.isArray(settled.data.payment.penalties), 'a payment carries its penalties');
  t.is(fulfilled.data.order.status, 'FULFILLED');
  t.false('version' in created, 'order payloads carry no version');
  for (const event of delivered) t.regex(event.id, /^evt_(ord|pay)_[0-9A-Za-z]{24}_\d+_\d+$/);

  const log = await world.deliveries();
  t.is(log.length, 4);
  t.true(log.every((delivery: any) => delivery.status === 'DELIVERED' && delivery.attempts === 1 && delivery.responseCode === 200));
});

test('an endpoint subscribed by v0 name gets only what the name maps to', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['order.fulfilled'] } });
  await paidSandboxOrder(world);
  await world.receiver.until(() => world.receiver.delivered().length >= 2);
  await world.gateway.node.system.effectsIdle();
  t.deepEqual(
    world.receiver.delivered().map((event) => event.type),
    ['PAYMENT_SETTLED', 'ORDER_FULFILLED'],
  );
});

test('a receiver answering 500 gets the event again at the scheduled time, with the same id, and then it is delivered', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  let calls = 0;
  world.receiver.respond = () => (++calls === 1 ? { status: 500, body: 'database down' } : 200);
  await placeOrder(world.gateway, world.key);
  await world.receiver.until(() => world.receiver.requests.length === 1);
  await world.gateway.node.system.effectsIdle();

  const [pending] = await world.deliveries();
  t.is(pending.status, 'PENDING');
  t.is(pending.responseCode, 500);
  const wait = Date.parse(pending.nextRetryAt) - Date.parse(pending.lastAttemptAt);
  t.true(wait >= 0.9 * MINUTE && wait <= 1.1 * MINUTE, `the first retry waits a minute, give or take a tenth (${wait} ms)`);

  await world.advance(wait - 1_000);
  t.is(world.receiver.requests.length, 1, 'nothing before the time');
  await world.advance(1_000);
  await world.receiver.until(() => world.receiver.requests.length === 2);
  await world.gateway.node.system.effectsIdle();
  const [first, second] = world.receiver.requests;
  t.is(first!.headers['x-webhook-id'], second!.headers['x-webhook-id']);
  t.is(first!.body, second!.body, 'the same bytes');

  const detail = answerOf(
    await world.gateway.request('GET', `/api/v1/webhooks/${world.webhook.id}/deliveries/${pending.id}`, { key: world.key }),
    200,
    'delivery',
  );
  t.is(detail.status, 'DELIVERED');
  t.is(detail.attempts, 2);
  t.deepEqual(
    detail.attemptHistory.map((attempt: any) => attempt.responseCode),
    [500, 200],
  );
  t.is(detail.attemptHistory[0].responseExcerpt, 'database down');
  t.is(detail.payload, first!.body);
  t.falsy(JSON.stringify(detail).includes(world.webhook.secret), 'the log never shows the secret');
});

test('a receiver down for three days gets every event once it is back, and the endpoint stays on', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  let up = false;
  world.receiver.respond = () => (up ? 200 : 503);
  const orders: string[] = [];
  for (let index = 0; index < 3; index++) {
    orders.push((await placeOrder(world.gateway, world.key)).id);
    await world.gateway.node.system.effectsIdle();
    await world.advance(6 * HOUR);
  }
  // Three days after the first event, in steps that fire each retry as it falls due.
  for (let elapsed = 18 * HOUR; elapsed < 72 * HOUR; elapsed += HOUR) await world.advance(HOUR);
  t.deepEqual(world.receiver.delivered(), [], 'nothing got through while it was down');
  up = true;
  // Past the longest wait a retry can take (12 h stretched by a tenth): every delivery still on its schedule comes back.
  for (let elapsed = 0; elapsed < 14 * HOUR; elapsed += HOUR) await world.advance(HOUR);
  await world.receiver.until(() => world.receiver.delivered().length === 3);
  t.deepEqual(
    world.receiver
      .delivered()
      .map((event) => event.data.order.id)
      .sort(),
    [...orders].sort(),
  );
  for (const request of world.receiver.requests.filter((request) => request.answered === 200)) {
    t.deepEqual(signaturesValid(request, world.webhook.secret), { peer: true, standard: true });
  }
  const webhook = answerOf(await world.gateway.request('GET', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key }), 200, 'webhook');
  t.true(webhook.active);
});

test('410 Gone disables the endpoint, says why, and later events are recorded but not sent to it', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  world.receiver.respond = () => 410;
  await placeOrder(world.gateway, world.key);
  await world.receiver.until(() => world.receiver.requests.length === 1);
  await world.gateway.node.system.effectsIdle();
  const webhook = answerOf(await world.gateway.request('GET', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key }), 200, 'webhook');
  t.false(webhook.active);
  t.is(webhook.disabledReason.code, 'GONE');
  const [delivery] = await world.deliveries();
  t.is(delivery.status, 'FAILED');
  t.is(delivery.failure.code, 'GONE');

  await placeOrder(world.gateway, world.key);
  await world.gateway.node.system.effectsIdle();
  await world.advance(HOUR);
  t.is(world.receiver.requests.length, 1);
  const all = await world.deliveries();
  t.is(all.length, 2);
  // Both made at the same instant of the test clock: which the log lists first is not fixed.
  const later = all.find((entry: any) => entry.id !== delivery.id);
  t.like(later, { status: 'FAILED', attempts: 0, failure: { code: 'SUSPENDED' } }, 'kept for a redelivery once the endpoint is back on');
});

test('an endpoint that fails for the whole schedule is disabled as FAILING; redeliver-failed sends it all again once it is back on', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  world.receiver.respond = () => 500;
  await placeOrder(world.gateway, world.key);
  // Each retry fires at the end of the hour it falls due in, so the schedule takes a few hours more than its 75.6 here.
  for (let hours = 0; hours < 100; hours++) await world.advance(HOUR);
  await world.gateway.node.system.effectsIdle();
  t.is(world.receiver.requests.length, 12, 'twelve attempts');
  const [delivery] = await world.deliveries();
  t.is(delivery.status, 'FAILED');
  t.is(delivery.failure.code, 'SCHEDULE_SPENT');
  const off = answerOf(await world.gateway.request('GET', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key }), 200, 'webhook');
  t.false(off.active);
  t.is(off.disabledReason.code, 'FAILING');

  const refused = await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/redeliver-failed`, {
    key: world.key,
    body: { since: '2026-11-01T00:00:00Z' },
  });
  t.is(refused.status, 409);
  t.is(refused.body.errorCode, 'WEBHOOK_DISABLED');

  answerOf(await world.gateway.request('PATCH', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key, body: { active: true } }), 200, 'enable');
  world.receiver.respond = () => 200;
  const batch = answerOf(
    await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/redeliver-failed`, { key: world.key, body: { since: '2026-11-01T00:00:00Z' } }),
    202,
    'redeliver',
  );
  t.deepEqual(batch, { count: 1, deliveryIds: [delivery.id], more: false });
  await world.receiver.until(() => world.receiver.delivered().length === 1);
  await world.gateway.node.system.effectsIdle();
  const [after] = await world.deliveries();
  t.is(after.status, 'DELIVERED');
  t.is(after.attempts, 13);
});

test('a redelivery sends the same event again; one in flight is refused', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  await placeOrder(world.gateway, world.key);
  await world.receiver.until(() => world.receiver.delivered().length === 1);
  await world.gateway.node.system.effectsIdle();
  const [delivery] = await world.deliveries();
  let release!: () => void;
  world.receiver.respond = () => new Promise((resolve) => (release = () => resolve(200)));
  const again = answerOf(
    await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/deliveries/${delivery.id}/redeliver`, { key: world.key }),
    202,
    'redeliver',
  );
  t.is(again.status, 'PENDING');
  await world.receiver.until(() => world.receiver.requests.length === 2);
  const busy = await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/deliveries/${delivery.id}/redeliver`, { key: world.key });
  t.is(busy.status, 409);
  t.is(busy.body.errorCode, 'DELIVERY_IN_PROGRESS');
  release();
  await world.receiver.until(() => world.receiver.delivered().length === 2);
  const [first, second] = world.receiver.requests;
  t.is(first!.headers['x-webhook-id'], second!.headers['x-webhook-id']);
});

test('after a rotation both secrets sign for 24 hours, then only the new one', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  const rotated = answerOf(await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/rotate-secret`, { key: world.key }), 200, 'rotate');
  t.not(rotated.secret, world.webhook.secret);
  t.is(rotated.previousSecretExpiresAt, new Date(world.gateway.clock.now() + 24 * HOUR).toISOString());
  await placeOrder(world.gateway, world.key);
  await world.receiver.until(() => world.receiver.requests.length === 1);
  const during = world.receiver.requests[0]!;
  t.deepEqual(signaturesValid(during, world.webhook.secret), { peer: true, standard: true }, 'the old secret still verifies');
  t.deepEqual(signaturesValid(during, rotated.secret), { peer: true, standard: true }, 'the new one too');
  t.is(String(during.headers['x-webhook-signature']).split(',').length, 2);

  await world.advance(24 * HOUR + 1_000);
  await placeOrder(world.gateway, world.key);
  await world.receiver.until(() => world.receiver.requests.length === 2);
  const after = world.receiver.requests[1]!;
  t.deepEqual(signaturesValid(after, world.webhook.secret), { peer: false, standard: false }, 'the old secret no longer signs');
  t.deepEqual(signaturesValid(after, rotated.secret), { peer: true, standard: true });
  t.regex(String(after.headers['x-webhook-signature']), /^[0-9a-f]{64}$/);
});

test('a DISPUTE_* test event is sent in the dispute payload shape, not the order shape', async (t) => {
  const world = await webhookWorld(t);
  for (const eventType of ['DISPUTE_OPENED', 'DISPUTE_PAID', 'DISPUTE_ESCALATED']) {
    const sent = answerOf(
      await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/test`, { key: world.key, body: { eventType } }),
      200,
      eventType,
    );
    t.true(sent.success, eventType);
  }
  const bodies = world.receiver.requests.map((request) => JSON.parse(request.body));
  t.deepEqual(
    bodies.map((body) => [body.type, body.version, body.data.status]),
    [
      ['DISPUTE_OPENED', 1, 'OPEN'],
      ['DISPUTE_PAID', 1, 'PAID'],
      ['DISPUTE_ESCALATED', 1, 'ESCALATED'],
    ],
  );
  for (const body of bodies) {
    t.is(body.id, `dispute_${body.data.disputeId}_${body.type}`);
    t.regex(body.data.disputeId, /^test_[0-9a-f]{24}$/);
    t.deepEqual(Object.keys(body.data).sort(), [
      'amountUsdc',
      'caseAmount',
      'caseCurrency',
      'disputeId',
      'dueAt',
      'intentHash',
      'orderId',
      'paidTxHash',
      'paymentId',
      'sellerAddress',
      'status',
    ]);
    t.false('order' in body.data);
  }
  t.is(bodies[1].data.paidTxHash.length, 66);
  t.is(bodies[0].data.paidTxHash, null);
});

test('the test event answers what the endpoint said and shows in the log', async (t) => {
  const world = await webhookWorld(t);
  const ok = answerOf(await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/test`, { key: world.key }), 200, 'test');
  t.deepEqual({ success: ok.success, responseCode: ok.responseCode, error: ok.error }, { success: true, responseCode: 200, error: null });
  const [request] = world.receiver.requests;
  const body = JSON.parse(request!.body);
  t.regex(body.id, /^evt_test_/);
  t.is(body.type, 'ORDER_CREATED');
  t.deepEqual(signaturesValid(request!, world.webhook.secret), { peer: true, standard: true });

  world.receiver.respond = () => ({ status: 500, body: 'nope' });
  const failed = answerOf(
    await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/test`, { key: world.key, body: { eventType: 'PAYMENT_SETTLED' } }),
    200,
    'test',
  );
  t.false(failed.success);
  t.is(failed.responseCode, 500);
  await world.gateway.node.system.effectsIdle();
  await world.advance(HOUR);
  t.is(world.receiver.requests.length, 2, 'a test event is not retried');
  const failedOnes = await world.deliveries('&status=FAILED');
  t.deepEqual(
    failedOnes.map((delivery: any) => delivery.id),
    [failed.deliveryId],
  );
  t.is((await world.deliveries('&eventType=PAYMENT_SETTLED')).length, 1);
  t.is((await world.deliveries(`&eventId=${body.id}`)).length, 1);
});

test('the next event of an order waits for the previous one’s first answer; a failed answer lets it go, so a retry may arrive after it', async (t) => {
  // Long enough that the receiver holding an answer is not a time-out.
  const world = await webhookWorld(t, { config: { WEBHOOK_TIMEOUT_MS: 30_000 }, body: { events: ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_CANCELLED'] } });
  const answers: Array<(status: number) => void> = [];
  world.receiver.respond = () => new Promise((resolve) => answers.push(resolve));
  const order = await placeOrder(world.gateway, world.key);
  await world.receiver.until(() => world.receiver.requests.length === 1);
  const payment = await startPayment(order);
  answerOf(await order.customer('POST', `/payments/${payment.id}/cancel`), 200, 'cancel');
  // Not effectsIdle: the attempt the receiver holds is an effect that has not ended.
  await world.receiver.until(async () => (await world.deliveries()).length === 3, 10_000, 'three deliveries');
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(world.receiver.requests.length, 1, 'PAYMENT_CREATED waits while ORDER_CREATED is unanswered');
  const held = await world.deliveries('&eventType=PAYMENT_CREATED');
  t.is(held[0].attempts, 0);

  answers[0]!(200);
  await world.receiver.until(() => world.receiver.requests.length === 2);
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(world.receiver.requests.length, 2, 'PAYMENT_CANCELLED waits for PAYMENT_CREATED in turn');
  answers[1]!(500);
  await world.receiver.until(() => world.receiver.requests.length === 3);
  answers[2]!(200);
  t.deepEqual(
    world.receiver.requests.map((request) => JSON.parse(request.body).type),
    ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_CANCELLED'],
  );
  // The failed PAYMENT_CREATED comes back on its schedule, after the event that followed it.
  world.receiver.respond = () => 200;
  await world.gateway.node.system.effectsIdle();
  await world.advance(2 * MINUTE);
  await world.receiver.until(() => world.receiver.requests.length === 4);
  t.is(JSON.parse(world.receiver.requests[3]!.body).type, 'PAYMENT_CREATED');
});
