import test from 'ava';
import { answerOf, placeOrder, startPayment } from '../../support/checkout.js';
import { signaturesValid } from '../../support/webhook-receiver.js';
import { webhookWorld } from '../../support/webhooks.js';

const HOUR = 60 * 60 * 1000;

test('an open amount set, a cancelled attempt and an expired one reach the endpoint in document 1’s order shape, signed', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_AMOUNT_SET', 'PAYMENT_CANCELLED', 'PAYMENT_EXPIRED'] } });
  const order = await placeOrder(world.gateway, world.key, { openAmount: { currency: 'USD', minAmount: '5', maxAmount: '100' } });
  const set = await order.customer('POST', '/amount', { amount: '20', currency: 'USD' });
  t.is(set.status, 200);
  const cancelled = await startPayment(order);
  answerOf(await order.customer('POST', `/payments/${cancelled.id}/cancel`), 200, 'cancel');
  const expiring = await startPayment(order);
  await world.gateway.node.system.effectsIdle();
  await world.advance(HOUR + 1_000);
  await world.receiver.until(() => world.receiver.delivered().length === 3);

  const [amountSet, paymentCancelled, paymentExpired] = world.receiver.delivered() as [any, any, any];
  t.is(amountSet.type, 'ORDER_AMOUNT_SET');
  t.like(amountSet.data.amountChange, { previousAmountUsdc: null, newAmountUsdc: '20', fiat: { amount: '20.00', currency: 'USD' }, amountVersion: 1 });
  t.is(amountSet.data.order.id, order.id);
  t.is(paymentCancelled.type, 'PAYMENT_CANCELLED');
  t.like(paymentCancelled.data.payment, { id: cancelled.id, status: 'CANCELLED' });
  t.is(paymentExpired.type, 'PAYMENT_EXPIRED');
  t.like(paymentExpired.data.payment, { id: expiring.id, status: 'EXPIRED' });
  t.is(paymentExpired.data.order.status, 'CREATED', 'the order stays open');
  for (const request of world.receiver.requests) t.deepEqual(signaturesValid(request, world.webhook.secret), { peer: true, standard: true });
});

test('events no API path emits yet (an order cancelled, a payment failed, payout and dispute events) are shaped and delivered when an actor emits them', async (t) => {
  const world = await webhookWorld(t, { environment: 'LIVE' });
  const order = await placeOrder(world.gateway, world.key);
  await world.receiver.until(() => world.receiver.delivered().length === 1);
  const { order: view } = answerOf(await world.gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'hosted read');
  const at = world.gateway.clock.now();
  const bus = world.gateway.node.bus;
  await bus.publish({
    id: `order:${order.id}:9:0`,
    type: 'ORDER_CANCELLED',
    actor: { kind: 'order', id: order.id },
    at,
    data: { order: { ...view, merchantId: world.merchant.liveId, status: 'CANCELLED' } },
  });
  await bus.publish({
    id: `payment:pay_X:4:0`,
    type: 'PAYMENT_FAILED',
    actor: { kind: 'payment', id: 'pay_X' },
    at,
    data: { orderId: order.id, payment: { id: 'pay_X', orderId: order.id, status: 'FAILED' } },
  });
  const payout = { id: 'po_1', merchantId: world.merchant.liveId, status: 'SETTLED' };
  await bus.publish({
    id: 'payout:po_1:7:0',
    type: 'PAYOUT_ORDER_PARTIALLY_PAID',
    actor: { kind: 'payout', id: 'po_1' },
    at,
    data: { merchantId: world.merchant.liveId, payout, partialPayment: { amount: '5' } },
  });
  const dispute = { disputeId: 'dsp_1', orderId: order.id, paymentId: 'pay_X', status: 'OPEN' };
  await bus.publish({
    id: 'dispute:dsp_1:1:0',
    type: 'DISPUTE_OPENED',
    actor: { kind: 'dispute', id: 'dsp_1' },
    at,
    data: { merchantId: world.merchant.liveId, dispute },
  });
  await world.receiver.until(() => world.receiver.delivered().length === 5);

  const byType = Object.fromEntries(world.receiver.delivered().map((event) => [event.type, event]));
  t.like(byType.ORDER_CANCELLED, { id: `evt_${order.id}_9_0`, data: { order: { status: 'CANCELLED' }, payment: null } });
  t.false('version' in byType.ORDER_CANCELLED!);
  t.like(byType.PAYMENT_FAILED, { id: 'evt_pay_X_4_0', data: { payment: { status: 'FAILED' }, order: { id: order.id } } });
  t.deepEqual(byType.PAYOUT_ORDER_PARTIALLY_PAID, {
    id: 'evt_po_1_7_0',
    type: 'PAYOUT_ORDER_PARTIALLY_PAID',
    timestamp: new Date(at).toISOString(),
    version: 2,
    data: payout,
    partialPayment: { amount: '5' },
  });
  t.deepEqual(byType.DISPUTE_OPENED, {
    id: 'dispute_dsp_1_DISPUTE_OPENED',
    type: 'DISPUTE_OPENED',
    timestamp: new Date(at).toISOString(),
    version: 1,
    data: dispute,
  });
  for (const request of world.receiver.requests) t.deepEqual(signaturesValid(request, world.webhook.secret), { peer: true, standard: true });

  // PAYMENT_SETTLEMENT_RETRACTED is a domain event, not a webhook type: nobody hears it.
  await bus.publish({
    id: `payment:pay_X:5:0`,
    type: 'PAYMENT_SETTLEMENT_RETRACTED',
    actor: { kind: 'payment', id: 'pay_X' },
    at,
    data: { orderId: order.id },
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(world.receiver.requests.length, 5);
});
