/**
 * The dashboard's order cancel on a live order (docs/dashboard-auth.md), on the embedded node
 * with its local chain and seeded makers: the open attempt's intent, signalled on chain, is
 * cancelled on chain by the attempt's own cancel (its `${paymentId}-cancel` transaction mines),
 * so the maker's liquidity is free again; the order is CANCELLED with ORDER_CANCELLED once.
 */
import test from 'ava';
import { answerOf, placeOrder, recordEvents } from '../support/checkout.js';
import { dashboardWorld } from '../support/dashboard.js';
import { untilOnClock } from '../support/real-time-poll.js';

test('cancelling a live order from the dashboard cancels its attempt’s intent on chain', async (t) => {
  const world = await dashboardWorld(t, { INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, LOCAL_MAKERS: true });
  const { gateway } = world;
  const business = await world.business();
  const order = await placeOrder(gateway, business.liveKey, { requestedUsdcAmount: '25' });
  await untilOnClock(
    gateway.clock,
    () => order.customer('GET', '/quotes?rail=venmo&quoteLimit=10'),
    (response) => response.status === 200 && response.body.responseObject.platforms.length > 0,
    'the seeded venmo deposits to be quoted',
  );
  const created = answerOf(await order.customer('POST', '/payments', { rail: 'venmo' }), 201, 'the payment create');
  const signalled = await untilOnClock(
    gateway.clock,
    async () => answerOf(await order.customer('GET', `/payments/${created.id}`), 200, 'the payment read'),
    (payment) => payment.railIdentifier !== null,
    'the intent to be signalled',
  );
  const events = await recordEvents(gateway);
  const owner = await world.signIn(business.ownerEmail);

  const cancelled = await world.call(owner, 'POST', `/api/v1/merchants/me/orders/${order.id}/cancel`);
  t.is(cancelled.status, 200);
  t.is(cancelled.body.responseObject.order.status, 'CANCELLED');
  t.like(cancelled.body.responseObject.payments[0], { id: created.id, status: 'CANCELLED', railIdentifier: signalled.railIdentifier });

  const cancel = await untilOnClock(
    gateway.clock,
    async () =>
      (await gateway.node.system.documents('transaction').findOne({ _id: `${created.id}-cancel` })) as { view?: { status?: string; purpose?: string } } | null,
    (doc) => doc?.view?.status === 'MINED' || doc?.view?.status === 'FAILED',
    'the intent’s cancel to be mined',
  );
  t.like(cancel!.view, { status: 'MINED', purpose: 'cancelIntent' });
  const types = await events.typesOf(order.id, created.id);
  t.is(types.filter((type) => type === 'ORDER_CANCELLED').length, 1);
  t.is(types.filter((type) => type === 'PAYMENT_CANCELLED').length, 1);
});
