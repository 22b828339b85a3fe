import test from 'ava';
import { MERCHANT_EVENTS_COLLECTION } from '../../../actors/merchant-events/index.js';
import { answerOf, placeOrder } from '../../support/checkout.js';
import { listEvents, untilListed } from '../../support/merchant-events.js';
import { webhookWorld } from '../../support/webhooks.js';
import { payoutWorld } from '../payouts/payout-world.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

test('the list holds the bodies the webhooks were sent, newest first, filtered by type, order and payment, paged', async (t) => {
  const world = await webhookWorld(t);
  const { order, payment } = answerOf(
    await world.gateway.request('POST', '/api/v1/sandbox/test-order', { key: world.key, body: {} }),
    201,
    'sandbox test order',
  );
  await world.receiver.until(() => world.receiver.delivered().length === 4);
  const listed = await untilListed(world.gateway, world.key, 4);

  t.deepEqual(
    listed.map((event) => event.type),
    ['ORDER_FULFILLED', 'PAYMENT_SETTLED', 'PAYMENT_CREATED', 'ORDER_CREATED'],
  );
  // Byte for byte the webhook bodies: the log keeps what the dispatcher's builder made.
  t.deepEqual(
    [...listed].reverse().map((event) => JSON.stringify(event)),
    world.receiver.requests.map((request) => request.body),
  );

  const types = (events: any[]) => events.map((event) => event.type);
  t.deepEqual(types((await listEvents(world.gateway, world.key, 'type=ORDER_FULFILLED')).events), ['ORDER_FULFILLED']);
  t.deepEqual(types((await listEvents(world.gateway, world.key, 'type=ORDER_CREATED&type=ORDER_FULFILLED')).events), ['ORDER_FULFILLED', 'ORDER_CREATED']);
  t.deepEqual(types((await listEvents(world.gateway, world.key, `paymentId=${payment.id}`)).events), ['PAYMENT_SETTLED', 'PAYMENT_CREATED']);
  t.is((await listEvents(world.gateway, world.key, `orderId=${order.id}`)).total, 4);
  t.is((await listEvents(world.gateway, world.key, `orderId=${order.id}&type=PAYMENT_SETTLED`)).total, 1);

  const second = await listEvents(world.gateway, world.key, 'page=2&limit=3');
  t.like(second, { total: 4, page: 2, limit: 3 });
  t.deepEqual(types(second.events), ['ORDER_CREATED']);

  for (const query of ['type=ORDER_SHIPPED', 'type=', 'orderId=ord_1', 'paymentId=pay_', 'limit=101', 'page=0', 'eventType=ORDER_CREATED']) {
    const refused = await world.gateway.request('GET', `/api/v1/events?${query}`, { key: world.key });
    t.is(refused.status, 400, query);
    t.is(refused.body.message, 'Invalid request', query);
  }
});

test('another merchant’s events, and the other environment’s, are never listed', async (t) => {
  const world = await webhookWorld(t, { environment: 'LIVE' });
  const { gateway, merchant } = world;
  const other = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x2222222222222222222222222222222222222222' });
  const live = await placeOrder(gateway, merchant.liveKey);
  const sandbox = await placeOrder(gateway, merchant.sandboxKey);
  const others = await placeOrder(gateway, other.liveKey);

  const ownLive = await untilListed(gateway, merchant.liveKey, 1);
  const ownSandbox = await untilListed(gateway, merchant.sandboxKey, 1);
  const otherLive = await untilListed(gateway, other.liveKey, 1);
  t.deepEqual(
    ownLive.map((event) => event.data.order.id),
    [live.id],
  );
  t.deepEqual(
    ownSandbox.map((event) => event.data.order.id),
    [sandbox.id],
  );
  t.deepEqual(
    otherLive.map((event) => event.data.order.id),
    [others.id],
  );
  t.deepEqual((await listEvents(gateway, other.sandboxKey)).events, []);

  // Asking for the merchant's own order or payment ids by another key finds nothing, not a hint that they exist.
  for (const [key, id] of [
    [other.liveKey, live.id],
    [merchant.sandboxKey, live.id],
    [merchant.liveKey, sandbox.id],
  ] as const) {
    t.like(await listEvents(gateway, key, `orderId=${id}`), { events: [], total: 0 });
  }
});

test('an event the bus hands over twice is listed once', async (t) => {
  const world = await webhookWorld(t, { environment: 'LIVE' });
  const order = await placeOrder(world.gateway, world.key);
  const [created] = await untilListed(world.gateway, world.key, 1);
  const event = {
    id: `order:${order.id}:1:0`,
    type: 'ORDER_CREATED',
    actor: { kind: 'order', id: order.id },
    at: world.gateway.clock.now(),
    data: { order: created.data.order },
  };
  t.is(created.id, `evt_${order.id}_1_0`, 'the event built here is the one the order emitted');
  await world.gateway.node.events.recorder.record(event);
  await world.gateway.node.events.recorder.record(event);
  const again = await listEvents(world.gateway, world.key);
  t.is(again.total, 1);
  t.deepEqual(again.events, [created]);
});

test('events are listed for 30 days by the node’s clock, and deleted from the store after', async (t) => {
  const world = await webhookWorld(t, { environment: 'LIVE' });
  const stored = await world.gateway.node.store.collection({ name: MERCHANT_EVENTS_COLLECTION, indexes: [] });
  await placeOrder(world.gateway, world.key);
  await untilListed(world.gateway, world.key, 1);

  await world.advance(30 * DAY - 1);
  t.is((await listEvents(world.gateway, world.key)).total, 1, 'still kept at the last millisecond');
  t.is(await stored.count({}), 1);

  await world.advance(2);
  t.is((await listEvents(world.gateway, world.key)).total, 0, 'not listed past 30 days');
  await world.advance(HOUR);
  t.is(await stored.count({}), 0, 'and gone from the store by the next hourly purge');

  const later = await placeOrder(world.gateway, world.key);
  const [fresh] = await untilListed(world.gateway, world.key, 1);
  t.is(fresh.data.order.id, later.id, 'what happens after is listed as usual');
});

test('payout and dispute events are listed in their own shapes, a dispute under its order and payment', async (t) => {
  const world = await payoutWorld(t);
  const { gateway, merchant } = world;
  const payout = await world.created();
  const [created] = await untilListed(gateway, merchant.liveKey, 1, 'type=PAYOUT_ORDER_CREATED');
  t.like(created, { type: 'PAYOUT_ORDER_CREATED', version: 2, data: { payoutId: payout.payoutId } });
  t.regex(created.id, new RegExp(`^evt_${payout.payoutId}_\\d+_\\d+$`));

  const key = merchant.sandboxKey;
  const { order, payment } = answerOf(await gateway.request('POST', '/api/v1/sandbox/test-order', { key, body: {} }), 201, 'sandbox test order');
  const dispute = answerOf(await gateway.request('POST', '/api/v1/merchants/me/disputes/simulate', { key, body: { paymentId: payment.id } }), 201, 'dispute');
  const [disputed] = await untilListed(gateway, key, 1, 'type=DISPUTE_OPENED');
  t.deepEqual(disputed, {
    id: `dispute_${dispute.disputeId}_DISPUTE_OPENED`,
    type: 'DISPUTE_OPENED',
    timestamp: dispute.openedAt,
    version: 1,
    data: {
      disputeId: dispute.disputeId,
      orderId: order.id,
      paymentId: payment.id,
      intentHash: dispute.intentHash,
      amountUsdc: dispute.amountUsdc,
      caseAmount: dispute.caseAmount,
      caseCurrency: dispute.caseCurrency,
      sellerAddress: dispute.sellerAddress,
      status: 'OPEN',
      dueAt: dispute.dueAt,
      paidTxHash: null,
    },
  });
  await untilListed(gateway, key, 5);
  t.deepEqual(
    (await listEvents(gateway, key, `orderId=${order.id}`)).events.map((event) => event.type),
    ['DISPUTE_OPENED', 'ORDER_FULFILLED', 'PAYMENT_SETTLED', 'PAYMENT_CREATED', 'ORDER_CREATED'],
  );
  t.deepEqual(
    (await listEvents(gateway, key, `paymentId=${payment.id}&type=DISPUTE_OPENED`)).events.map((event) => event.id),
    [disputed.id],
  );
  t.is((await listEvents(gateway, merchant.liveKey, 'type=DISPUTE_OPENED')).total, 0, 'a sandbox dispute is not the live account’s');
});
