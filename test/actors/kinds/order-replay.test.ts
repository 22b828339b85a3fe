/**
 * Replays order documents written by machine version 1 (test/fixtures/order/, written by
 * the commit their README names) through the current order kind: each restores through the
 * migrations, keeps what it served, and takes the commands of today's machine. A change
 * that leaves an old document unreadable, or reads it wrong, fails here.
 */
import test from 'ava';
import { CommandRejectedError } from '../../../actors/index.js';
import { orderKind, type OrderView } from '../../../actors/kinds/index.js';
import { currentOrderView } from '../../../actors/kinds/order-kind.js';
import { replayFixture, replayFixtureNames, storeFixture } from '../../support/replay-fixtures.js';
import { startTestSystem } from '../../support/test-node.js';

const AT = '2026-11-24T09:00:00.000Z';

async function replay(name: string) {
  const fixture = replayFixture('order', name);
  const { system } = await startTestSystem({ kinds: [orderKind] });
  await storeFixture(system, fixture);
  const id = fixture.document._id;
  return {
    id,
    stored: fixture.document.view as OrderView,
    tell: (event: Record<string, unknown> & { type: string }) => system.askAt({ kind: 'order', id }, event),
    doc: async () => (await system.documents('order').findOne({ _id: id }))!,
    view: async () => (await system.documents('order').findOne({ _id: id }))!.view as OrderView,
  };
}

const settle = (paymentId: string, usdcAmount: bigint) => ({ type: 'APPLY_SETTLEMENT', paymentId, usdcAmount, at: AT });
const retract = (paymentId: string) => ({ type: 'RETRACT_SETTLEMENT', paymentId, at: AT });
const paymentUpdated = (id: string) => ({
  type: 'PAYMENT_UPDATED',
  payment: { id, rail: 'venmo', status: 'CREATED', step: 'AWAITING_PAYMENT', railIdentifier: null, paid: false, createdAt: AT },
});

test('the fixtures are documents of machine version 1 in each status version 1 had', (t) => {
  const names = replayFixtureNames('order', 1);
  const statuses = new Set(names.map((name) => replayFixture('order', name).document.view.status));
  t.deepEqual([...statuses].sort(), ['CANCELLED', 'CREATED', 'FULFILLED', 'PARTIALLY_FULFILLED']);
  for (const name of names) t.is(replayFixture('order', name).document.machineVersion, 1, name);
});

for (const name of replayFixtureNames('order', 1)) {
  test(`${name}: restored through the migrations, it takes an attempt and serves what it served, with the attempt`, async (t) => {
    const order = await replay(name);
    await order.tell(paymentUpdated('pay_new'));
    const doc = await order.doc();
    t.is(doc.machineVersion, orderKind.machineVersion);
    const view = await order.view();
    // Every field version 1 served is served the same; the attempt is the only news.
    t.deepEqual(view.order, order.stored.order);
    t.like(view, {
      status: order.stored.status,
      merchantId: order.stored.merchantId,
      createdAt: order.stored.createdAt,
      idempotencyKey: order.stored.idempotencyKey,
      searchText: `${order.stored.searchText}\nvenmo`,
      hasActivePayment: true,
      currentPaymentId: 'pay_new',
      paymentSelectedRail: 'venmo',
    });
    t.deepEqual(view.hosted, { ...order.stored.hosted, amountLock: view.hosted.amountLock });
  });
}

test('v1-created: settles in full to FULFILLED, and its idempotency key still finds it', async (t) => {
  const order = await replay('v1-created');
  const reply = (await order.tell(settle('pay_new', 100_000_000n))) as { order: OrderView['order'] };
  t.like(reply.order, { status: 'FULFILLED', remainingUsdcAmount: '0', completedAt: AT });
  t.is((await order.view()).idempotencyKey, 'key-v1-created');
});

test('v1-created: an order written before resizes existed holds none, and refuses one as its creation had dynamic orders off', async (t) => {
  const order = await replay('v1-created');
  const error = await t.throwsAsync(order.tell({ type: 'RESIZE', usdcAmount: 120_000_000n, idempotencyKey: 'resize-v1-created', at: AT }), {
    instanceOf: CommandRejectedError,
  });
  t.like(error, { code: 'RESIZE_NOT_SUPPORTED', details: { reason: 'DYNAMIC_ORDERS_DISABLED', settledUsdcAmount: '0' } });
  await order.tell(paymentUpdated('pay_new'));
  const view = await order.view();
  t.deepEqual(view.resizes, []);
  t.like(view.order, { requestedUsdcAmount: '100' });
});

test('v1-open-created: the open amount, which version 1 had no saved input for, is set and then settles', async (t) => {
  const order = await replay('v1-open-created');
  const fiat = { amount: '20.00', currency: 'EUR' };
  await order.tell({ type: 'SET_AMOUNT', usdcAmount: 21_500_000n, fiat, at: AT });
  const view = await order.view();
  t.like(view.order, { amountMode: 'OPEN', requestedUsdcAmount: '21.5', remainingUsdcAmount: '21.5' });
  t.deepEqual(view.hosted.savedInput, fiat);
  t.like(((await order.tell(settle('pay_new', 21_500_000n))) as { order: OrderView['order'] }).order, { status: 'FULFILLED' });
});

test('v1-partially-fulfilled: the settlement version 1 counted is not counted again; the rest fulfils it', async (t) => {
  const order = await replay('v1-partially-fulfilled');
  const refused = await t.throwsAsync(order.tell(settle('pay_v1_a', 30_000_000n)), { instanceOf: CommandRejectedError });
  t.is(refused.code, 'SETTLEMENT_ALREADY_APPLIED');
  const reply = (await order.tell(settle('pay_new', 70_000_000n))) as { order: OrderView['order'] };
  t.like(reply.order, { status: 'FULFILLED', remainingUsdcAmount: '0', completedAt: AT });
});

test('v1-partially-fulfilled: retracting the settlement version 1 counted takes it back to CREATED', async (t) => {
  const order = await replay('v1-partially-fulfilled');
  await order.tell(retract('pay_v1_a'));
  t.like((await order.view()).order, { status: 'CREATED', remainingUsdcAmount: '100' });
});

test('v1-fulfilled: retracting its last settlement leaves it PARTIALLY_FULFILLED, not completed', async (t) => {
  const order = await replay('v1-fulfilled');
  await order.tell(retract('pay_v1_b'));
  t.like((await order.view()).order, { status: 'PARTIALLY_FULFILLED', remainingUsdcAmount: '70', completedAt: null });
});

test('v1-fulfilled: written before refunds existed, it holds none and takes one, against what settled', async (t) => {
  const order = await replay('v1-fulfilled');
  t.false('refundableAmountUsdc' in (await order.view()), 'its stored view predates refunds');
  const current = currentOrderView((await order.doc()) as unknown as Parameters<typeof currentOrderView>[0]);
  t.like(current, { refunds: [], refundableAmountUsdc: '100', refundStates: [] }, 'the view today’s kind gives it, which the refunds read answers');
  t.deepEqual(current.order, order.stored.order, 'and the rest as it served it');
  const payout = { type: 'CREATE', id: 'po_v1_refund' };
  const refused = await t.throwsAsync(order.tell({ type: 'REFUND', payoutId: 'po_v1_refund', amountUsdc: 100_000_001n, metadata: null, payout, at: AT }), {
    instanceOf: CommandRejectedError,
  });
  t.is(refused.code, 'REFUND_EXCEEDS_REFUNDABLE');
  await order.tell({ type: 'REFUND', payoutId: 'po_v1_refund', amountUsdc: 40_000_000n, metadata: null, payout, at: AT });
  await order.tell({ type: 'REFUND_PAYOUT_CREATED', payoutId: 'po_v1_refund', at: AT });
  t.like((await order.view()).order, { status: 'FULFILLED', refundStatus: 'PENDING', refundAmountUsdc: '40', refundDepositId: 'po_v1_refund' });
});

test('v1-cancelled: a second cancel is refused and a late settlement is still counted', async (t) => {
  const order = await replay('v1-cancelled');
  const refused = await t.throwsAsync(order.tell({ type: 'CANCEL', at: AT }), { instanceOf: CommandRejectedError });
  t.is(refused.code, 'ORDER_STATUS_NOT_ELIGIBLE');
  await order.tell(settle('pay_late', 40_000_000n));
  t.like((await order.view()).order, { status: 'CANCELLED', remainingUsdcAmount: '60' });
});

test('v1-cancelled-late-settlement: retracting the late settlement keeps it CANCELLED and gives the amount back', async (t) => {
  const order = await replay('v1-cancelled-late-settlement');
  t.is(order.stored.order.remainingUsdcAmount, '75');
  await order.tell(retract('pay_v1_late'));
  t.like((await order.view()).order, { status: 'CANCELLED', remainingUsdcAmount: '80' });
});
