/**
 * How a refund ends other than funded in full (docs/refunds.md): its payout expires unfunded
 * or is cancelled by the merchant (the refund refunds nothing, the amount may be refunded
 * again, no order webhook), is funded short at its deadline (what arrived is refunded), or
 * fails to prepare (the request's error, nothing held, the same request again makes it).
 */
import test from 'ava';
import { answerOf } from '../../support/checkout.js';
import { HOUR, newKey, refundBody, refundWorld } from './refund-world.js';

const DAY = 24 * HOUR;

test('a refund whose payout expires unfunded: EXPIRED, the order back to NONE with the amount free again, no order webhook; a new refund may take it', async (t) => {
  const world = await refundWorld(t, { webhooks: true });
  const orderId = await world.order();
  const made = await world.refunded(orderId, refundBody({ amount: '100' }));
  await world.advance(DAY + HOUR);
  t.like(await world.view(made.payout.payoutId), { status: 'EXPIRED' });
  const order = await world.orderRead(orderId);
  t.like(order, {
    status: 'FULFILLED',
    refundStatus: 'NONE',
    refundAmountUsdc: null,
    refundDepositId: null,
    refundTransactionHash: null,
    refundMetadata: null,
  });
  const read = answerOf(await world.refunds(orderId), 200, 'refunds read');
  t.like(read, { refundableAmountUsdc: '100', refunds: [{ payoutId: made.payout.payoutId, status: 'EXPIRED', refundedAmountUsdc: null }] });
  t.truthy(read.refunds[0].endedAt);
  t.is(order.updatedAt, read.refunds[0].endedAt, 'the order changed when its refund ended');
  const receiver = world.receiver!;
  await receiver.until(() => receiver.delivered().some((event) => event.type === 'PAYOUT_ORDER_EXPIRED'));
  t.deepEqual(
    receiver
      .delivered()
      .map((event) => event.type)
      .filter((type) => type.startsWith('REFUND_')),
    ['REFUND_PENDING'],
    'document 1 has no refund event for it: PAYOUT_ORDER_EXPIRED says it',
  );
  await world.refunded(orderId, refundBody({ amount: '100' }));
  t.like(await world.orderRead(orderId), { refundStatus: 'PENDING', refundAmountUsdc: '100' });
});

test('a refund whose payout the merchant cancels unfunded: CANCELLED, the amount free again; a funded refund’s payout cannot be cancelled', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  const made = await world.refunded(orderId, refundBody({ amount: '30' }));
  const funded = await world.refunded(orderId, refundBody({ amount: '20' }));
  await world.fund(funded.payout.payoutId);
  t.is((await world.cancel(made.payout.payoutId)).status, 200);
  await world.gateway.node.system.effectsIdle();
  t.like(await world.orderRead(orderId), { refundStatus: 'COMPLETED', refundAmountUsdc: '20', refundDepositId: funded.payout.payoutId });
  const read = answerOf(await world.refunds(orderId), 200, 'refunds read');
  t.is(read.refundableAmountUsdc, '80');
  t.deepEqual(
    read.refunds.map((refund: { status: string }) => refund.status),
    ['COMPLETED', 'CANCELLED'],
  );
  const late = await world.cancel(funded.payout.payoutId);
  t.is(late.status, 409);
  t.is(late.body.errorCode, 'PAYOUT_NOT_CANCELLABLE');
});

test('a refund funded short by its deadline refunds what arrived: COMPLETED with that amount, and the rest may be refunded', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  const made = await world.refunded(orderId, refundBody({ amount: '50' }));
  const context = await world.context(made.payout.payoutId);
  world.funding.deliver(world.funding.send(context.fundingAmount / 2n, world.iso(), context.requestId!), 25_250_000n, context.requestId!);
  await world.activity(made.payout.payoutId);
  t.like(await world.orderRead(orderId), { refundStatus: 'PENDING', refundAmountUsdc: '50' }, 'partly funded, still pending');
  await world.advance(DAY + HOUR);
  t.like(await world.view(made.payout.payoutId), { status: 'FUNDED', depositAmount: '25.25' }, 'no payout step rounds a refund’s deposit');
  t.like(await world.orderRead(orderId), { refundStatus: 'COMPLETED', refundAmountUsdc: '25.25' });
  t.like(answerOf(await world.refunds(orderId), 200, 'refunds read'), {
    refundableAmountUsdc: '74.75',
    refunds: [{ requestedAmountUsdc: '50', refundedAmountUsdc: '25.25', status: 'COMPLETED' }],
  });
});

test('a refund whose payout fails to prepare answers the provider’s error and holds nothing; the same request again, once the provider answers, makes it', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  const key = newKey();
  world.funding.refuseQuotes('FUNDING_AMOUNT_TOO_LOW');
  const tooLow = await world.refund(orderId, refundBody({ amount: '60' }), key);
  t.is(tooLow.status, 422);
  t.is(tooLow.body.errorCode, 'PAYOUT_FUNDING_AMOUNT_TOO_LOW');
  t.like(answerOf(await world.refunds(orderId), 200, 'refunds read'), { refunds: [], refundableAmountUsdc: '100' });
  t.like(await world.orderRead(orderId), { refundStatus: 'NONE' });
  // The amount is free while the key waits: another refund may take part of it.
  world.funding.refuseQuotes(null);
  await world.refunded(orderId, refundBody({ amount: '30' }));

  world.funding.refuseQuotes('OUTAGE');
  const outage = await world.refund(orderId, refundBody({ amount: '60' }), key);
  t.is(outage.status, 502);
  t.is(outage.body.errorCode, 'PAYOUT_BRIDGE_QUOTE_FAILED');

  world.funding.refuseQuotes(null);
  const retried = await world.refund(orderId, refundBody({ amount: '60' }), key);
  t.is(retried.status, 201, 'the same key prepares again');
  t.like(retried.body.responseObject, { refund: { status: 'PENDING', requestedAmountUsdc: '60' }, order: { refundAmountUsdc: '90' } });
  t.like(answerOf(await world.refunds(orderId), 200, 'refunds read'), { refundableAmountUsdc: '10' });
});

test('a retry after a failed preparation is held to what is left: the order took more meanwhile, 422 REFUND_EXCEEDS_REFUNDABLE', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  const key = newKey();
  world.wallets.failing = true;
  const failed = await world.refund(orderId, refundBody({ amount: '60' }), key);
  t.is(failed.status, 502);
  t.is(failed.body.errorCode, 'PAYOUT_EMBEDDED_WALLET_FAILED');
  world.wallets.failing = false;
  await world.refunded(orderId, refundBody({ amount: '50' }));
  const retried = await world.refund(orderId, refundBody({ amount: '60' }), key);
  t.is(retried.status, 422);
  t.deepEqual(retried.body.responseObject, { refundableAmountUsdc: '50' });
  t.like(answerOf(await world.refunds(orderId), 200, 'refunds read'), { refundableAmountUsdc: '50', refunds: [{ requestedAmountUsdc: '50' }] });
});
