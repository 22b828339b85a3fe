import test from 'ava';
import { answerOf, placeOrder, startPayment } from '../../support/checkout.js';
import { signaturesValid } from '../../support/webhook-receiver.js';
import { webhookWorld } from '../../support/webhooks.js';
import { signInThroughInbox } from '../../support/dashboard.js';
import { payoutWorld } from '../payouts/payout-world.js';

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

test('an order cancelled from the dashboard and a payout reach the endpoint in their own shapes, as they happen', async (t) => {
  const world = await payoutWorld(t, { webhooks: true });
  const { gateway } = world;
  const receiver = world.receiver!;
  const order = await placeOrder(gateway, world.key);
  await receiver.until(() => receiver.delivered().length === 1);

  await gateway.admin('POST', `/internal/v1/merchants/${world.merchant.liveId}/owners`, { email: 'owner@events.example' });
  const owner = await signInThroughInbox(gateway, 'owner@events.example');
  const cancelled = await gateway.request('POST', `/api/v1/merchants/me/orders/${order.id}/cancel`, {
    headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken },
  });
  t.is(cancelled.status, 200, JSON.stringify(cancelled.body));
  const payout = await world.created();
  await receiver.until(() => receiver.delivered().length === 3);

  const byType = Object.fromEntries(receiver.delivered().map((event) => [event.type, event]));
  t.like(byType.ORDER_CANCELLED, { data: { order: { id: order.id, status: 'CANCELLED' }, payment: null } });
  t.regex(byType.ORDER_CANCELLED!.id, new RegExp(`^evt_${order.id}_\\d+_\\d+$`));
  t.false('version' in byType.ORDER_CANCELLED!);
  t.like(byType.PAYOUT_ORDER_CREATED, { version: 2, data: { payoutId: payout.payoutId } });
  t.regex(byType.PAYOUT_ORDER_CREATED!.id, new RegExp(`^evt_${payout.payoutId}_\\d+_\\d+$`));

  const bus = gateway.node.bus;
  const at = gateway.clock.now();
  // PAYMENT_SETTLEMENT_RETRACTED is a domain event, not a webhook type: nobody hears it.
  await bus.publish({
    id: `payment:pay_X:5:0`,
    type: 'PAYMENT_SETTLEMENT_RETRACTED',
    actor: { kind: 'payment', id: 'pay_X' },
    at,
    data: { orderId: order.id },
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.is(receiver.requests.length, 3);
});

test('a dispute reaches the endpoint in document 1’s dispute shape when it opens', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['DISPUTE_OPENED'] } });
  const { payment } = answerOf(await world.gateway.request('POST', '/api/v1/sandbox/test-order', { key: world.key, body: {} }), 201, 'sandbox test order');
  const dispute = answerOf(
    await world.gateway.request('POST', '/api/v1/merchants/me/disputes/simulate', { key: world.key, body: { paymentId: payment.id } }),
    201,
    'dispute',
  );
  await world.receiver.until(() => world.receiver.delivered().length === 1);
  const [opened] = world.receiver.delivered() as [any];
  t.deepEqual(opened, {
    id: `dispute_${dispute.disputeId}_DISPUTE_OPENED`,
    type: 'DISPUTE_OPENED',
    timestamp: dispute.openedAt,
    version: 1,
    data: {
      disputeId: dispute.disputeId,
      orderId: dispute.orderId,
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
  t.deepEqual(signaturesValid(world.receiver.requests[0]!, world.webhook.secret), { peer: true, standard: true });
});
