/**
 * The refund create's Idempotency-Key (docs/refunds.md): the payout create's table (document
 * 2) for the refund's payout. A key names one payout or refund of the merchant: reused with
 * another body, on another order, or for a payout, it conflicts.
 */
import test from 'ava';
import { orderKind } from '../../../actors/kinds/order-kind.js';
import { payoutIdOf } from '../../../gateway/payouts/create-payout.js';
import type { RefundPayoutCreation } from '../../../machines/order/index.js';
import { payoutBody } from '../../support/payout-fakes.js';
import { newKey, refundBody, refundWorld } from './refund-world.js';

test('a missing or malformed Idempotency-Key is 400 INVALID_IDEMPOTENCY_KEY, after the body is found valid', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  for (const key of [null, 'short', 'k'.repeat(129), 'has space!']) {
    const answer = await world.refund(orderId, refundBody(), key);
    t.is(answer.status, 400, String(key));
    t.is(answer.body.errorCode, 'INVALID_IDEMPOTENCY_KEY', String(key));
  }
  const invalid = await world.refund(orderId, refundBody({ amount: 'ten' }), null);
  t.is(invalid.status, 400);
  t.is(invalid.body.errorCode, undefined, 'a body failing validation answers before the key is looked at');
  t.truthy(invalid.body.responseObject.fieldErrors.amount);
});

test('the same key and body: 200 with the refund, order and payout as they are now; another body, order or a payout’s key: 409 IDEMPOTENCY_KEY_CONFLICT', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  const key = newKey();
  const first = await world.refunded(orderId, refundBody(), key);
  await world.fund(first.payout.payoutId);

  const replay = await world.refund(orderId, refundBody({ customerEmail: 'ANA@example.com' }), key);
  t.is(replay.status, 200, 'the e-mail’s case is the same request');
  t.is(replay.body.message, 'Refund already created for this Idempotency-Key');
  t.like(replay.body.responseObject, {
    idempotentReplay: true,
    checkoutUrl: first.checkoutUrl,
    refund: { payoutId: first.payout.payoutId, status: 'COMPLETED' },
    order: { refundStatus: 'COMPLETED' },
    payout: { payoutId: first.payout.payoutId, status: 'FUNDED' },
  });
  t.is(world.funding.requests.size, 1, 'a replay makes no second payout');

  const otherOrder = await world.order();
  for (const [what, answer] of [
    ['another amount', await world.refund(orderId, refundBody({ amount: '10' }), key)],
    ['other metadata', await world.refund(orderId, refundBody({ metadata: { reason: 'other' } }), key)],
    ['another order', await world.refund(otherOrder, refundBody(), key)],
    ['a payout with the key', await world.create(payoutBody(), key)],
  ] as const) {
    t.is(answer.status, 409, what);
    t.is(answer.body.errorCode, 'IDEMPOTENCY_KEY_CONFLICT', what);
  }
  t.like(answerOfRefunds(await world.refunds(otherOrder)), { refunds: [], refundableAmountUsdc: '100' }, 'the other order holds nothing');

  const payoutKey = newKey();
  await world.created(payoutBody(), payoutKey);
  const taken = await world.refund(orderId, refundBody({ amount: '1' }), payoutKey);
  t.is(taken.status, 409);
  t.is(taken.body.errorCode, 'IDEMPOTENCY_KEY_CONFLICT', 'a key a payout used names that payout');
  t.like(answerOfRefunds(await world.refunds(orderId)), { refundableAmountUsdc: '62.5' });
});

test('two requests with one key while the first prepares: the second is 409 IDEMPOTENCY_REQUEST_IN_PROGRESS, then the key replays', async (t) => {
  const world = await refundWorld(t);
  const orderId = await world.order();
  let release!: () => void;
  world.funding.hold = new Promise<void>((resolve) => (release = resolve));
  const key = newKey();
  const first = world.refund(orderId, refundBody(), key);
  // The first request's payout exists and prepares, held at the provider.
  for (let round = 0; round < 500 && (await world.orderContext(orderId)).refunds.length === 0; round++) await new Promise((resolve) => setTimeout(resolve, 10));
  const second = await world.refund(orderId, refundBody(), key);
  t.is(second.status, 409);
  t.is(second.body.errorCode, 'IDEMPOTENCY_REQUEST_IN_PROGRESS');
  world.funding.hold = null;
  release();
  t.is((await first).status, 201);
  const again = await world.refund(orderId, refundBody(), key);
  t.is(again.status, 200);
  t.is(again.body.responseObject.payout.payoutId, (await first).body.responseObject.payout.payoutId);
  t.is(world.funding.requests.size, 1);
});

function answerOfRefunds(answer: { status: number; body: { responseObject: unknown } }) {
  if (answer.status !== 200) throw new Error(`refunds read: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject as { refunds: unknown[]; refundableAmountUsdc: string };
}

test('one key on two orders at once: one refund, one 409 IDEMPOTENCY_KEY_CONFLICT, and the other order holds nothing', async (t) => {
  const world = await refundWorld(t);
  const orders = [await world.order(), await world.order()];
  const key = newKey();
  const answers = await Promise.all(orders.map((orderId) => world.refund(orderId, refundBody(), key)));
  t.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409]);
  t.is(answers.find((answer) => answer.status === 409)!.body.errorCode, 'IDEMPOTENCY_KEY_CONFLICT');
  const loser = orders[answers.findIndex((answer) => answer.status === 409)]!;
  await world.gateway.node.system.effectsIdle();
  t.like(answerOfRefunds(await world.refunds(loser)), { refunds: [], refundableAmountUsdc: '100' });
  t.true(
    (await world.orderContext(loser)).refunds.every((refund) => refund.state === 'RELEASED'),
    'a reservation it made under the key is let go',
  );
  t.is(world.funding.requests.size, 1);
});

test('a reservation whose payout another request made under the same key (the two raced) is let go by the next request with that key', async (t) => {
  const world = await refundWorld(t);
  const [winner, loser] = [await world.order(), await world.order()];
  const key = newKey();
  const made = await world.refunded(winner, refundBody(), key);
  // As a request for the other order would have, had it reserved before the payout existed: the order's tell to make it is refused.
  await world.gateway.node.system.ask(orderKind, loser, {
    type: 'REFUND',
    payoutId: made.payout.payoutId,
    amountUsdc: 37_500_000n,
    metadata: null,
    payout: { type: 'CREATE', id: made.payout.payoutId } as unknown as RefundPayoutCreation,
    at: world.iso(),
  });
  await world.gateway.node.system.effectsIdle();
  t.like(answerOfRefunds(await world.refunds(loser)), { refundableAmountUsdc: '62.5' }, 'held, with no payout of its own');
  t.is(payoutIdOf(world.merchant.liveId, key), made.payout.payoutId);

  const conflict = await world.refund(loser, refundBody(), key);
  t.is(conflict.status, 409);
  t.is(conflict.body.errorCode, 'IDEMPOTENCY_KEY_CONFLICT');
  t.like(answerOfRefunds(await world.refunds(loser)), { refunds: [], refundableAmountUsdc: '100' });
  t.like(answerOfRefunds(await world.refunds(winner)), { refundableAmountUsdc: '62.5', refunds: [{ payoutId: made.payout.payoutId, status: 'PENDING' }] });
});
