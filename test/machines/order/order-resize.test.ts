/**
 * The order machine's RESIZE (machines/order/resize.ts, docs/resize.md), message by message:
 * what a resize changes and emits, a resize down to what settled fulfilling the order, the
 * attempts it ends, a repeat of its key in any status, and the retraction of a settlement
 * after a resize counting from the new amount.
 */
import test from 'ava';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { orderMachine, type OrderContext, type OrderEmitted, type OrderEvent, type PaymentSummary } from '../../../machines/order/index.js';
import { fixedOrderInput } from '../../support/order-input.js';

type Actions = Array<{ type: string; params?: unknown }>;
const AT = '2026-11-23T12:30:00.000Z';
const emitted = (actions: Actions) =>
  actions.filter((action) => action.type === 'xstate.emit').map((action) => (action.params as { event: OrderEmitted }).event);
const tells = (actions: Actions) => actions.filter((action) => action.type === 'tell').map((action) => action.params);
const context = (snapshot: AnyMachineSnapshot) => snapshot.context as OrderContext;
const send = (snapshot: AnyMachineSnapshot, event: OrderEvent) => transition(orderMachine, snapshot as ReturnType<typeof orderMachine.resolveState>, event);
const resize = (usdc: bigint, idempotencyKey = 'resize-key-1'): OrderEvent => ({ type: 'RESIZE', usdcAmount: usdc * 1_000_000n, idempotencyKey, at: AT });
const settle = (paymentId: string, usdc: bigint): OrderEvent => ({ type: 'APPLY_SETTLEMENT', paymentId, usdcAmount: usdc * 1_000_000n, at: AT });
const fiatPriced = () =>
  initialTransition(orderMachine, fixedOrderInput({ dynamicOrdersEnabled: true, requestedFiat: { amount: '92.00', currency: 'EUR' }, pricing: null }))[0];

test('a resize takes the new amount, drops the fiat price, and emits ORDER_RESIZED with data.resize', (t) => {
  const [resized, actions] = send(fiatPriced(), resize(120n));
  t.is(resized.value, 'CREATED');
  t.like(context(resized), { requestedUsdcAmount: 120_000_000n, remainingUsdcAmount: 120_000_000n, requestedFiat: null, pricing: null, updatedAt: AT });
  const [event] = emitted(actions);
  if (event?.type !== 'ORDER_RESIZED') return t.fail();
  t.deepEqual(event.resize, { previousAmountUsdc: '100', newAmountUsdc: '120' });
  t.like(event.order, { status: 'CREATED', requestedUsdcAmount: '120', remainingUsdcAmount: '120' });
});

test('resized down to what settled, the order is FULFILLED: ORDER_RESIZED then ORDER_FULFILLED', (t) => {
  const [partial] = send(fiatPriced(), settle('pay_1', 30n));
  const [up] = send(partial, resize(150n));
  t.like(context(up), { remainingUsdcAmount: 120_000_000n });
  const [down, actions] = send(up, resize(30n, 'resize-key-2'));
  t.is(down.value, 'FULFILLED');
  t.like(context(down), { requestedUsdcAmount: 30_000_000n, remainingUsdcAmount: 0n, completedAt: AT });
  t.deepEqual(
    emitted(actions).map((event) => event.type),
    ['ORDER_RESIZED', 'ORDER_FULFILLED'],
  );
  // A reorganisation then takes the settlement back: owed again, counted from the new amount.
  const [retracted] = send(down, { type: 'RETRACT_SETTLEMENT', paymentId: 'pay_1', at: AT });
  t.is(retracted.value, 'CREATED');
  t.is(context(retracted).remainingUsdcAmount, 30_000_000n);
});

test('a resize ends the open attempts quoted on the old amount, as a replacement does; one that may settle refuses it', (t) => {
  const open: PaymentSummary = {
    id: 'pay_open',
    rail: 'venmo',
    status: 'CREATED',
    step: 'AWAITING_PAYMENT',
    railIdentifier: null,
    paid: false,
    createdAt: AT,
  } as PaymentSummary;
  const [withAttempt] = send(fiatPriced(), { type: 'PAYMENT_UPDATED', payment: open });
  const [, actions] = send(withAttempt, resize(120n));
  t.deepEqual(tells(actions), [{ to: { kind: 'payment', id: 'pay_open' }, event: { type: 'CANCEL', reason: 'REPLACED', at: AT } }]);

  const [verifying] = send(fiatPriced(), { type: 'PAYMENT_UPDATED', payment: { ...open, step: 'VERIFYING' } });
  t.false(verifying.can(resize(120n)));
});

test('the same key again changes nothing, in any status; a FIXED order with dynamic orders off is never resized', (t) => {
  const [resized] = send(fiatPriced(), resize(120n));
  const [again, actions] = send(resized, resize(120n));
  t.true(resized.can(resize(120n)));
  t.deepEqual(emitted(actions), []);
  t.is(context(again).resizes.length, 1);
  const [cancelled] = send(again, { type: 'CANCEL', at: AT });
  t.true(cancelled.can(resize(120n)), 'a repeat after the order moved on is acknowledged');
  t.false(cancelled.can(resize(130n, 'resize-key-new')));

  const [off] = initialTransition(orderMachine, fixedOrderInput());
  t.false(off.can(resize(120n)));
});
