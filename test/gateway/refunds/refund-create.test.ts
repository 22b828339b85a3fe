/**
 * A merchant refunds a FULFILLED order through the gateway (docs/refunds.md): the answer, the
 * payout it is paid by (funded exactly as any payout, without the payout step or a merchant
 * fee), the order's refund fields through PENDING and COMPLETED, the REFUND_PENDING and
 * REFUND_COMPLETED webhooks, the order's refunds read, and several refunds of one order.
 */
import test from 'ava';
import { answerOf } from '../../support/checkout.js';
import { USDC_ON_BASE } from '../../support/payout-fakes.js';
import { USDC, refundBody, refundWorld } from './refund-world.js';

test('a refund of 37.50 of a 100 USDC order: 201 with the refund PENDING and its payout to fund; funded, COMPLETED; webhooks say both; the order stays FULFILLED', async (t) => {
  const world = await refundWorld(t, { webhooks: true });
  const orderId = await world.order('100');
  const answer = await world.refund(orderId, refundBody({ metadata: { reason: 'damaged item', ticket: 42 } }));
  t.is(answer.status, 201);
  t.is(answer.body.message, 'Refund created');
  const made = answer.body.responseObject;
  const payoutId = made.payout.payoutId;
  t.like(made, {
    idempotentReplay: false,
    refund: {
      payoutId,
      status: 'PENDING',
      requestedAmountUsdc: '37.5',
      refundedAmountUsdc: null,
      transactionHash: null,
      metadata: { reason: 'damaged item', ticket: 42 },
      completedAt: null,
      endedAt: null,
    },
    order: {
      id: orderId,
      status: 'FULFILLED',
      refundStatus: 'PENDING',
      refundAmountUsdc: '37.5',
      refundDepositId: payoutId,
      refundTransactionHash: null,
      refundMetadata: { reason: 'damaged item', ticket: 42 },
    },
    // Not a whole 100 USDC step, and no merchant fee: the buffer (1 %) and the service's 200 bps only, (37.5 + 0.375) / 0.98 rounded up.
    payout: {
      status: 'AWAITING_FUNDING',
      payout: { amount: '37.50', chainId: 8453 },
      merchantFee: { bps: 0, amount: '0.00' },
      funding: { chainId: 8453, amount: '38.64796', expectedAmount: '37.875' },
    },
  });
  t.regex(made.checkoutUrl, new RegExp(`/cashout/${payoutId}\\?token=`));
  t.truthy(made.payout.funding.depositAddress);
  t.deepEqual(await world.view(payoutId), made.payout, 'the payout reads as any payout');
  t.true((answerOf(await world.list(), 200, 'payout list').items as Array<{ payoutId: string }>).some((item) => item.payoutId === payoutId));
  t.is(world.funding.entry().request.amount, 38_647_960n, 'the deposit delivers the buffer and the service fee, nothing to the merchant');
  t.deepEqual(
    world.funding.entry().request.appFees.map((fee) => fee.feeBps),
    [200],
  );
  t.like(await world.orderRead(orderId), { status: 'FULFILLED', refundStatus: 'PENDING', refundDepositId: payoutId });

  await world.fund(payoutId);
  const delivery = world.funding.entry().transfers[0]!.destinationTransactionHashes[0];
  const completed = await world.orderRead(orderId);
  t.like(completed, {
    status: 'FULFILLED',
    refundStatus: 'COMPLETED',
    refundAmountUsdc: '37.5',
    refundDepositId: payoutId,
    refundTransactionHash: delivery,
    refundMetadata: { reason: 'damaged item', ticket: 42 },
    remainingUsdcAmount: '0',
  });
  const refunds = answerOf(await world.refunds(orderId), 200, 'refunds read');
  t.like(refunds, { refundableAmountUsdc: '62.5', refunds: [{ payoutId, status: 'COMPLETED', refundedAmountUsdc: '37.5', transactionHash: delivery }] });
  t.like(await world.view(payoutId), { status: 'FUNDED', depositAmount: '37.50' });

  const receiver = world.receiver!;
  await receiver.until(() => receiver.delivered().some((event) => event.type === 'REFUND_COMPLETED'));
  const orderEvents = receiver.delivered().filter((event) => event.type.startsWith('REFUND_'));
  t.deepEqual(
    orderEvents.map((event) => event.type),
    ['REFUND_PENDING', 'REFUND_COMPLETED'],
  );
  t.like(orderEvents[0]!.data, { order: { id: orderId, status: 'FULFILLED', refundStatus: 'PENDING' }, refund: made.refund, payment: null });
  const { hasActivePayment: _active, hasExpiredPayment: _expired, paymentSelectedRail: _rail, ...completedOrder } = completed;
  t.deepEqual(orderEvents[1]!.data.order, completedOrder, 'the webhook’s order is the order as the list reads it');
  t.deepEqual(orderEvents[1]!.data.refund, refunds.refunds[0]);
  const payoutEvents = receiver.delivered().filter((event) => event.type.startsWith('PAYOUT_ORDER_'));
  t.deepEqual(
    payoutEvents.map((event) => event.type),
    ['PAYOUT_ORDER_CREATED', 'PAYOUT_ORDER_FUNDED'],
    'the refund’s payout announces itself as any payout',
  );
});

test('several refunds of one order, up to what settled: 37.50, then 62.50, then nothing more, each a payout of its own', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order('100');
  const first = await world.refunded(orderId);
  const second = await world.refunded(orderId, refundBody({ amount: '62.5', customerEmail: 'ana@example.com' }));
  t.not(first.payout.payoutId, second.payout.payoutId);
  t.like(second.order, { refundStatus: 'PENDING', refundAmountUsdc: '100', refundDepositId: second.payout.payoutId });

  const over = await world.refund(orderId, refundBody({ amount: '0.000001' }));
  t.is(over.status, 422);
  t.is(over.body.errorCode, 'REFUND_EXCEEDS_REFUNDABLE');
  t.deepEqual(over.body.responseObject, { refundableAmountUsdc: '0' });

  await world.fund(first.payout.payoutId);
  t.like(await world.orderRead(orderId), {
    refundStatus: 'PENDING',
    refundAmountUsdc: '100',
    refundDepositId: second.payout.payoutId,
    refundTransactionHash: null,
  });
  await world.fund(second.payout.payoutId);
  t.like(await world.orderRead(orderId), { status: 'FULFILLED', refundStatus: 'COMPLETED', refundAmountUsdc: '100', refundDepositId: second.payout.payoutId });
  const read = answerOf(await world.refunds(orderId), 200, 'refunds read');
  t.deepEqual(
    read.refunds.map((refund: { payoutId: string; status: string }) => [refund.payoutId, refund.status]),
    [
      [second.payout.payoutId, 'COMPLETED'],
      [first.payout.payoutId, 'COMPLETED'],
    ],
  );
  t.is(read.refundableAmountUsdc, '0');
});

test('an overpaid order may be refunded all that settled; a refund above one payout’s 1,000 USDC is refused, and refunds in parts', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order('1500', [1000n * USDC, 600n * USDC]);
  t.is(answerOf(await world.refunds(orderId), 200, 'refunds read').refundableAmountUsdc, '1600');
  const above = await world.refund(orderId, refundBody({ amount: '1000.000001' }));
  t.is(above.status, 400);
  t.is(above.body.errorCode, 'PAYOUT_ABOVE_MAX');
  await world.refunded(orderId, refundBody({ amount: '1000' }));
  await world.refunded(orderId, refundBody({ amount: '600' }));
  t.like(await world.orderRead(orderId), { refundAmountUsdc: '1600' });
});

test('two refunds at once that together pass what settled: one 201, one 422, and the order holds only the one', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order('100');
  const answers = await Promise.all([world.refund(orderId, refundBody({ amount: '60' })), world.refund(orderId, refundBody({ amount: '60' }))]);
  t.deepEqual(answers.map((answer) => answer.status).sort(), [201, 422]);
  t.like(answers.find((answer) => answer.status === 422)!.body, { errorCode: 'REFUND_EXCEEDS_REFUNDABLE', responseObject: { refundableAmountUsdc: '40' } });
  t.is(world.funding.requests.size, 1, 'the refused one made no payout');
  t.like(answerOf(await world.refunds(orderId), 200, 'refunds read'), { refundableAmountUsdc: '40', refunds: [{ requestedAmountUsdc: '60' }] });
});

test('the refund is funded like any payout, in any allowed token: funding the deposit address in USDT on Arbitrum completes it', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order('50');
  const usdt = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';
  const made = await world.refunded(orderId, refundBody({ amount: '50', funding: { chainId: 42161, tokenAddress: usdt } }));
  t.like(made.payout.funding, { chainId: 42161, tokenAddress: usdt });
  await world.fund(made.payout.payoutId);
  t.like(await world.orderRead(orderId), { refundStatus: 'COMPLETED', refundAmountUsdc: '50' });
  t.not(USDC_ON_BASE, usdt);
});
