/**
 * The order's refunds on the machine alone (docs/refunds.md): what a refund request reserves
 * and tells, how each news of its payout moves it, what the order's refund fields and events
 * show, and what the order kind refuses, with the settlements they are counted against.
 */
import test from 'ava';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { orderRefusal } from '../../../actors/kinds/order-kind.js';
import {
  orderMachine,
  refundableUsdc,
  toCheckoutOrder,
  type OrderContext,
  type OrderEmitted,
  type OrderEvent,
  type OrderStatus,
  type RefundPayoutCreation,
} from '../../../machines/order/index.js';
import { fixedOrderInput } from '../../support/order-input.js';

const USDC = 1_000_000n;
const AT = '2026-11-24T09:00:00.000Z';
const LATER = '2026-11-24T10:00:00.000Z';

type Action = { type: string; params?: unknown };
type Step = { snapshot: AnyMachineSnapshot; actions: Action[] };

const context = (snapshot: AnyMachineSnapshot) => snapshot.context as OrderContext;
const status = (snapshot: AnyMachineSnapshot) => snapshot.value as OrderStatus;
const order = (snapshot: AnyMachineSnapshot) => toCheckoutOrder(context(snapshot), status(snapshot));
const emitted = (actions: Action[]) =>
  actions.filter((action) => action.type === 'xstate.emit').map((action) => (action.params as { event: OrderEmitted }).event);
const told = (actions: Action[]) =>
  actions.filter((action) => action.type === 'tell').map((action) => action.params as { to: { kind: string; id: string }; event: { type: string } });

function send(snapshot: AnyMachineSnapshot, event: OrderEvent): Step {
  const refusal = orderRefusal(context(snapshot), status(snapshot), event);
  if (refusal) throw new Error(`refused ${refusal.code}: ${refusal.message}`);
  if (!snapshot.can(event)) throw new Error(`${event.type} not taken in ${String(snapshot.value)}`);
  const [next, actions] = transition(orderMachine, snapshot as ReturnType<typeof orderMachine.resolveState>, event);
  return { snapshot: next, actions: actions as Action[] };
}

/** A 100 USDC order, settled by `settlements` (all of it by default). */
function paid(...settlements: bigint[]): AnyMachineSnapshot {
  let [snapshot] = initialTransition(orderMachine, fixedOrderInput());
  (settlements.length > 0 ? settlements : [100n * USDC]).forEach((usdcAmount, index) => {
    snapshot = send(snapshot, { type: 'APPLY_SETTLEMENT', paymentId: `pay_${index + 1}`, usdcAmount, at: AT }).snapshot;
  });
  return snapshot;
}

const creation = (payoutId: string) => ({ type: 'CREATE', id: payoutId, refundOf: { orderId: 'ord_fixed' } }) as unknown as RefundPayoutCreation;
const refund = (payoutId: string, usdc: bigint, metadata: Record<string, unknown> | null = null, at = AT): OrderEvent => ({
  type: 'REFUND',
  payoutId,
  amountUsdc: usdc,
  metadata,
  payout: creation(payoutId),
  at,
});
const created = (payoutId: string, at = AT): OrderEvent => ({ type: 'REFUND_PAYOUT_CREATED', payoutId, at });
const funded = (payoutId: string, usdc: bigint, at = LATER): OrderEvent => ({
  type: 'REFUND_PAYOUT_FUNDED',
  payoutId,
  refundedUsdc: usdc,
  transactionHash: `0x${payoutId.slice(-1).repeat(64)}`,
  at,
});

function run(snapshot: AnyMachineSnapshot, ...events: OrderEvent[]): Step {
  let step: Step = { snapshot, actions: [] };
  for (const event of events) step = send(step.snapshot, event);
  return step;
}

test('a refund of a FULFILLED order reserves its amount, tells its payout to be made, and shows nothing until the payout exists', (t) => {
  const start = paid();
  const { snapshot, actions } = send(start, refund('po_a', 37_500_000n, { reason: 'damaged' }));
  t.is(snapshot.value, 'FULFILLED');
  t.deepEqual(told(actions), [{ to: { kind: 'payout', id: 'po_a' }, event: creation('po_a') }], 'the payout’s creation, as the gateway made it');
  t.deepEqual(emitted(actions), []);
  t.like(order(snapshot), { refundStatus: 'NONE', refundAmountUsdc: null, refundDepositId: null }, 'a reservation is not a refund yet');
  t.is(refundableUsdc(context(snapshot)), 62_500_000n, 'but it holds its amount');
  t.is(context(snapshot).updatedAt, context(start).updatedAt);
});

test('created, then funded: PENDING with REFUND_PENDING, then COMPLETED with REFUND_COMPLETED; the status stays FULFILLED', (t) => {
  const reserved = send(paid(), refund('po_a', 37_500_000n, { reason: 'damaged' })).snapshot;
  const pending = send(reserved, created('po_a', LATER));
  t.is(pending.snapshot.value, 'FULFILLED');
  const [pendingEvent] = emitted(pending.actions);
  t.like(pendingEvent, {
    type: 'REFUND_PENDING',
    order: { status: 'FULFILLED', refundStatus: 'PENDING', refundAmountUsdc: '37.5', refundDepositId: 'po_a', refundTransactionHash: null },
    refund: { payoutId: 'po_a', status: 'PENDING', requestedAmountUsdc: '37.5', refundedAmountUsdc: null, createdAt: LATER, metadata: { reason: 'damaged' } },
  });
  t.is(context(pending.snapshot).updatedAt, LATER);

  const completed = send(pending.snapshot, funded('po_a', 37_500_000n, '2026-11-24T11:00:00.000Z'));
  t.is(completed.snapshot.value, 'FULFILLED');
  t.like(emitted(completed.actions)[0], {
    type: 'REFUND_COMPLETED',
    order: { refundStatus: 'COMPLETED', refundAmountUsdc: '37.5', refundTransactionHash: `0x${'a'.repeat(64)}`, refundMetadata: { reason: 'damaged' } },
    refund: { status: 'COMPLETED', refundedAmountUsdc: '37.5', completedAt: '2026-11-24T11:00:00.000Z' },
  });
  t.is(refundableUsdc(context(completed.snapshot)), 62_500_000n);
});

test('each news is counted once: a repeat of any of them is taken and changes nothing', (t) => {
  const pending = run(paid(), refund('po_a', 40n * USDC), created('po_a')).snapshot;
  const again = send(pending, created('po_a', LATER));
  t.deepEqual(emitted(again.actions), []);
  t.deepEqual(context(again.snapshot), context(pending));

  const completed = send(pending, funded('po_a', 40n * USDC)).snapshot;
  for (const repeat of [funded('po_a', 40n * USDC), created('po_a'), { type: 'REFUND_PAYOUT_NOT_CREATED', payoutId: 'po_a', at: LATER } as const]) {
    const step = send(completed, repeat);
    t.deepEqual(emitted(step.actions), [], repeat.type);
    t.deepEqual(context(step.snapshot).refunds, context(completed).refunds, repeat.type);
  }
  t.is(order(completed).refundAmountUsdc, '40');
  // A funded payout can still end CANCELLED (the customer spent it in the wallet app): the refund reached the customer, it stays COMPLETED.
  t.like(order(send(completed, { type: 'REFUND_PAYOUT_CANCELLED', payoutId: 'po_a', at: LATER }).snapshot), { refundStatus: 'COMPLETED' });
  // The same request again changes nothing, and tells nothing.
  const asked = send(completed, refund('po_a', 40n * USDC));
  t.deepEqual(told(asked.actions), []);
  t.deepEqual(context(asked.snapshot).refunds, context(completed).refunds);
});

test('a payout that failed to prepare lets the amount go; the same request again reserves it and asks the payout to prepare again', (t) => {
  const reserved = send(paid(), refund('po_a', 60n * USDC)).snapshot;
  const released = send(reserved, { type: 'REFUND_PAYOUT_NOT_CREATED', payoutId: 'po_a', at: AT }).snapshot;
  t.is(refundableUsdc(context(released)), 100n * USDC);
  t.like(order(released), { refundStatus: 'NONE' });
  const retried = send(released, refund('po_a', 60n * USDC, null, LATER));
  t.deepEqual(told(retried.actions), [{ to: { kind: 'payout', id: 'po_a' }, event: { type: 'RETRY', at: LATER } }]);
  t.is(refundableUsdc(context(retried.snapshot)), 40n * USDC);
});

test('a refund payout that expires or is cancelled unfunded refunds nothing: the amount is free again and the order shows what still counts', (t) => {
  const two = run(paid(), refund('po_a', 30n * USDC), created('po_a'), funded('po_a', 30n * USDC), refund('po_b', 50n * USDC), created('po_b', LATER)).snapshot;
  t.like(order(two), { refundStatus: 'PENDING', refundAmountUsdc: '80', refundDepositId: 'po_b', refundTransactionHash: null });
  t.is(refundableUsdc(context(two)), 20n * USDC);

  for (const type of ['REFUND_PAYOUT_EXPIRED', 'REFUND_PAYOUT_CANCELLED'] as const) {
    const { snapshot, actions } = send(two, { type, payoutId: 'po_b', at: '2026-11-25T10:00:00.000Z' });
    t.deepEqual(emitted(actions), [], 'document 1 has no refund event for it: the payout’s own webhook says it');
    t.is(snapshot.value, 'FULFILLED');
    t.like(order(snapshot), { refundStatus: 'COMPLETED', refundAmountUsdc: '30', refundDepositId: 'po_a', refundTransactionHash: `0x${'a'.repeat(64)}` });
    t.is(refundableUsdc(context(snapshot)), 70n * USDC);
    t.like(context(snapshot).refunds[1], { state: type === 'REFUND_PAYOUT_EXPIRED' ? 'EXPIRED' : 'CANCELLED', endedAt: '2026-11-25T10:00:00.000Z' });
  }
  const alone = run(paid(), refund('po_a', 30n * USDC), created('po_a'), { type: 'REFUND_PAYOUT_EXPIRED', payoutId: 'po_a', at: LATER }).snapshot;
  t.like(order(alone), { refundStatus: 'NONE', refundAmountUsdc: null, refundDepositId: null, refundMetadata: null });
});

test('a payout funded short at its deadline refunds what arrived; the rest may be refunded again', (t) => {
  const short = run(paid(), refund('po_a', 50n * USDC), created('po_a'), funded('po_a', 31_250_000n)).snapshot;
  t.like(order(short), { refundStatus: 'COMPLETED', refundAmountUsdc: '31.25' });
  t.is(refundableUsdc(context(short)), 68_750_000n);
});

test('what may be refunded in all is what settled, an overpayment included, less what pending and completed refunds hold', (t) => {
  const overpaid = paid(60n * USDC, 50n * USDC);
  t.is(refundableUsdc(context(overpaid)), 110n * USDC);
  const held = run(overpaid, refund('po_a', 100n * USDC), refund('po_b', 10n * USDC)).snapshot;
  t.is(refundableUsdc(context(held)), 0n);
  t.like(orderRefusal(context(held), 'FULFILLED', refund('po_c', 1n)), {
    code: 'REFUND_EXCEEDS_REFUNDABLE',
    details: { refundableAmountUsdc: '0' },
  });
  t.is(orderRefusal(context(held), 'FULFILLED', refund('po_b', 10n * USDC)), null, 'the same request again is not refused');
  t.like(orderRefusal(context(held), 'FULFILLED', refund('po_c', 0n)), { code: 'INVALID_AMOUNT' });
});

test('only a FULFILLED order is refunded; news still reaches an order a reorganisation moved off FULFILLED, whose status it never moves', (t) => {
  const partial = paid(40n * USDC);
  t.like(orderRefusal(context(partial), 'PARTIALLY_FULFILLED', refund('po_a', 10n * USDC)), {
    code: 'ORDER_NOT_REFUNDABLE',
    details: { status: 'PARTIALLY_FULFILLED' },
  });
  t.false(partial.can(refund('po_a', 10n * USDC)));

  const pending = run(paid(), refund('po_a', 40n * USDC)).snapshot;
  const retracted = send(pending, { type: 'RETRACT_SETTLEMENT', paymentId: 'pay_1', at: LATER }).snapshot;
  t.is(retracted.value, 'CREATED');
  t.is(refundableUsdc(context(retracted)), 0n, 'never below zero');
  const opened = send(retracted, created('po_a', LATER));
  t.is(opened.snapshot.value, 'CREATED');
  t.like(emitted(opened.actions)[0], { type: 'REFUND_PENDING', order: { status: 'CREATED', refundStatus: 'PENDING' } });
  t.like(orderRefusal(context(retracted), 'CREATED', refund('po_b', 1n)), { code: 'ORDER_NOT_REFUNDABLE' });
  t.is(orderRefusal(context(retracted), 'CREATED', refund('po_a', 40n * USDC)), null, 'the refund it holds, asked again, is taken');
});

test('news of a refund the order never held is refused', (t) => {
  t.like(orderRefusal(context(paid()), 'FULFILLED', created('po_unknown')), { code: 'REFUND_NOT_FOUND' });
});
