import test from 'ava';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import { fromJson, toJson } from '../../../actors/codec.js';
import { orderMachine, type OrderContext, type OrderEmitted, type OrderEvent, type OrderInput } from '../../../machines/order/index.js';
import { CREATED_AT, fixedOrderInput, openOrderInput } from '../../support/order-input.js';

type Step = [snapshot: AnyMachineSnapshot, emitted: OrderEmitted[]];

function emittedOf(actions: Array<{ type: string; params?: unknown }>): OrderEmitted[] {
  return actions.filter((action) => action.type === 'xstate.emit').map((action) => (action.params as { event: OrderEmitted }).event);
}

function create(input: OrderInput = fixedOrderInput()): Step {
  const [snapshot, actions] = initialTransition(orderMachine, input);
  return [snapshot, emittedOf(actions)];
}

function send(snapshot: AnyMachineSnapshot, event: OrderEvent): Step {
  const [next, actions] = transition(orderMachine, snapshot as ReturnType<typeof orderMachine.resolveState>, event);
  return [next, emittedOf(actions)];
}

const settle = (paymentId: string, usdcAmount: bigint, at = '2026-11-23T12:05:00.000Z'): OrderEvent => ({ type: 'APPLY_SETTLEMENT', paymentId, usdcAmount, at });
const context = (snapshot: AnyMachineSnapshot) => snapshot.context as OrderContext;

test('creation starts CREATED with what remains equal to the amount, and emits ORDER_CREATED with the order', (t) => {
  const [snapshot, emitted] = create();
  t.is(snapshot.value, 'CREATED');
  t.like(context(snapshot), {
    requestedUsdcAmount: 100_000_000n,
    remainingUsdcAmount: 100_000_000n,
    amountVersion: 0,
    settlements: [],
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    cancelledAt: null,
    completedAt: null,
  });
  t.is(emitted.length, 1);
  t.is(emitted[0]!.type, 'ORDER_CREATED');
  t.like(emitted[0]!.order, { id: 'ord_fixed', status: 'CREATED', requestedUsdcAmount: '100', remainingUsdcAmount: '100' });
});

test('a settlement of part of the order leaves it PARTIALLY_FULFILLED with the rest owed, and emits nothing', (t) => {
  const [partial, emitted] = send(create()[0], settle('pay_1', 40_000_000n));
  t.is(partial.value, 'PARTIALLY_FULFILLED');
  t.is(context(partial).remainingUsdcAmount, 60_000_000n);
  t.is(context(partial).updatedAt, '2026-11-23T12:05:00.000Z');
  t.deepEqual(emitted, []);

  const [again] = send(partial, settle('pay_2', 10_000_000n));
  t.is(again.value, 'PARTIALLY_FULFILLED');
  t.is(context(again).remainingUsdcAmount, 50_000_000n);
});

test('the settlement that covers the rest fulfils the order: completedAt set, ORDER_FULFILLED with the fulfilled order', (t) => {
  const [partial] = send(create()[0], settle('pay_1', 40_000_000n));
  const [fulfilled, emitted] = send(partial, settle('pay_2', 60_000_000n, '2026-11-23T13:00:00.000Z'));
  t.is(fulfilled.value, 'FULFILLED');
  t.is(context(fulfilled).remainingUsdcAmount, 0n);
  t.is(context(fulfilled).completedAt, '2026-11-23T13:00:00.000Z');
  t.deepEqual(emitted.map((event) => event.type), ['ORDER_FULFILLED']);
  t.like(emitted[0]!.order, { status: 'FULFILLED', remainingUsdcAmount: '0', completedAt: '2026-11-23T13:00:00.000Z' });
});

test('one settlement of the whole amount goes straight from CREATED to FULFILLED; an overpayment leaves zero, not a negative', (t) => {
  t.is(send(create()[0], settle('pay_1', 100_000_000n))[0].value, 'FULFILLED');
  const [over] = send(create()[0], settle('pay_1', 150_000_000n));
  t.is(over.value, 'FULFILLED');
  t.is(context(over).remainingUsdcAmount, 0n);
  t.is(context(over).settlements[0]!.usdcAmount, 150_000_000n, 'the settlement is recorded as it arrived');
});

test('a residual under the dust threshold fulfils; a residual at exactly the threshold does not', (t) => {
  const [dust] = send(create()[0], settle('pay_1', 99_600_000n));
  t.is(dust.value, 'FULFILLED');
  t.is(context(dust).remainingUsdcAmount, 400_000n, 'the residual stays visible');

  const [atThreshold] = send(create()[0], settle('pay_1', 99_500_000n));
  t.is(atThreshold.value, 'PARTIALLY_FULFILLED');
  t.is(context(atThreshold).remainingUsdcAmount, 500_000n);
});

test('the merchant threshold is the one applied: 2 USDC fulfils at 98.5; zero fulfils only at zero', (t) => {
  const generous = create(fixedOrderInput({ completionDustThresholdUsdc: 2_000_000n }))[0];
  t.is(send(generous, settle('pay_1', 98_500_000n))[0].value, 'FULFILLED');
  t.is(send(generous, settle('pay_1', 98_000_000n))[0].value, 'PARTIALLY_FULFILLED');

  const strict = create(fixedOrderInput({ completionDustThresholdUsdc: 0n }))[0];
  t.is(send(strict, settle('pay_1', 99_999_999n))[0].value, 'PARTIALLY_FULFILLED');
  t.is(send(strict, settle('pay_1', 100_000_000n))[0].value, 'FULFILLED');
});

test('the same payment settling twice counts once: the machine does not take the second', (t) => {
  const [partial] = send(create()[0], settle('pay_1', 40_000_000n));
  t.false(partial.can(settle('pay_1', 40_000_000n)));
  const [unchanged, emitted] = send(partial, settle('pay_1', 40_000_000n));
  t.is(unchanged.value, 'PARTIALLY_FULFILLED');
  t.is(context(unchanged).remainingUsdcAmount, 60_000_000n);
  t.is(context(unchanged).settlements.length, 1);
  t.deepEqual(emitted, []);
});

test('a settlement of zero or less is not taken', (t) => {
  const [created] = create();
  t.false(created.can(settle('pay_1', 0n)));
  t.false(created.can(settle('pay_1', -1n)));
});

test('CANCEL from CREATED or PARTIALLY_FULFILLED cancels with cancelledAt and ORDER_CANCELLED', (t) => {
  const cancel: OrderEvent = { type: 'CANCEL', at: '2026-11-23T14:00:00.000Z' };
  for (const [from] of [create(), send(create()[0], settle('pay_1', 1_000_000n))]) {
    const [cancelled, emitted] = send(from, cancel);
    t.is(cancelled.value, 'CANCELLED');
    t.is(context(cancelled).cancelledAt, '2026-11-23T14:00:00.000Z');
    t.is(context(cancelled).updatedAt, '2026-11-23T14:00:00.000Z');
    t.deepEqual(emitted.map((event) => event.type), ['ORDER_CANCELLED']);
    t.like(emitted[0]!.order, { status: 'CANCELLED', cancelledAt: '2026-11-23T14:00:00.000Z' });
  }
});

test('a FULFILLED or CANCELLED order does not take CANCEL', (t) => {
  const cancel: OrderEvent = { type: 'CANCEL', at: '2026-11-23T14:00:00.000Z' };
  const [fulfilled] = send(create()[0], settle('pay_1', 100_000_000n));
  const [cancelled] = send(create()[0], cancel);
  t.false(fulfilled.can(cancel));
  t.false(cancelled.can(cancel));
});

test('a settlement on a CANCELLED order is recorded and lowers what remains, but the order stays CANCELLED and emits nothing', (t) => {
  const [cancelled] = send(create()[0], { type: 'CANCEL', at: '2026-11-23T14:00:00.000Z' });
  const [late, emitted] = send(cancelled, settle('pay_late', 100_000_000n, '2026-11-23T15:00:00.000Z'));
  t.is(late.value, 'CANCELLED');
  t.is(context(late).remainingUsdcAmount, 0n);
  t.is(context(late).completedAt, null);
  t.is(context(late).updatedAt, '2026-11-23T15:00:00.000Z');
  t.deepEqual(context(late).settlements.map((s) => s.paymentId), ['pay_late']);
  t.deepEqual(emitted, []);
});

test('a late settlement on a FULFILLED order is recorded and the order stays FULFILLED without a second ORDER_FULFILLED', (t) => {
  const [fulfilled] = send(create()[0], settle('pay_1', 100_000_000n, '2026-11-23T12:05:00.000Z'));
  const [late, emitted] = send(fulfilled, settle('pay_2', 5_000_000n, '2026-11-23T16:00:00.000Z'));
  t.is(late.value, 'FULFILLED');
  t.is(context(late).remainingUsdcAmount, 0n);
  t.is(context(late).completedAt, '2026-11-23T12:05:00.000Z');
  t.is(context(late).settlements.length, 2);
  t.deepEqual(emitted, []);
});

test('an OPEN order has no amount until one is saved, and takes no settlement meanwhile', (t) => {
  const [open, emitted] = create(openOrderInput());
  t.is(open.value, 'CREATED');
  t.is(context(open).requestedUsdcAmount, null);
  t.is(context(open).remainingUsdcAmount, null);
  t.is(context(open).amountVersion, 0);
  t.like(emitted[0]!.order, { amountMode: 'OPEN', requestedUsdcAmount: null, remainingUsdcAmount: null, amountVersion: 0 });
  t.false(open.can(settle('pay_1', 10_000_000n)));
  t.is(send(open, settle('pay_1', 10_000_000n))[0].value, 'CREATED');
  t.true(open.can({ type: 'CANCEL', at: '2026-11-23T14:00:00.000Z' }));
});

test('a persisted snapshot restores to the same state and keeps working, as the runtime stores it', (t) => {
  const [partial] = send(create()[0], settle('pay_1', 40_000_000n));
  const stored = fromJson<Parameters<typeof orderMachine.resolveState>[0]>(toJson(orderMachine.getPersistedSnapshot(partial)));
  const restored = orderMachine.resolveState(stored);
  t.is(restored.value, 'PARTIALLY_FULFILLED');
  t.false(restored.can(settle('pay_1', 40_000_000n)));
  const [fulfilled, emitted] = send(restored, settle('pay_2', 60_000_000n));
  t.is(fulfilled.value, 'FULFILLED');
  t.deepEqual(emitted.map((event) => event.type), ['ORDER_FULFILLED'], 'restoring runs no entry actions again');
});
