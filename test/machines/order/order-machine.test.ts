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

const settle = (paymentId: string, usdcAmount: bigint, at = '2026-11-23T12:05:00.000Z'): OrderEvent => ({
  type: 'APPLY_SETTLEMENT',
  paymentId,
  usdcAmount,
  at,
});
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
  t.deepEqual(
    emitted.map((event) => event.type),
    ['ORDER_FULFILLED'],
  );
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
    t.deepEqual(
      emitted.map((event) => event.type),
      ['ORDER_CANCELLED'],
    );
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
  t.deepEqual(
    context(late).settlements.map((s) => s.paymentId),
    ['pay_late'],
  );
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
  t.deepEqual(
    emitted.map((event) => event.type),
    ['ORDER_FULFILLED'],
    'restoring runs no entry actions again',
  );
});

// === a settlement taken back (a chain reorganisation) =============================

const retract = (paymentId: string, at = '2026-11-23T17:00:00.000Z'): OrderEvent => ({ type: 'RETRACT_SETTLEMENT', paymentId, at });
const cancelAt = (at = '2026-11-23T14:00:00.000Z'): OrderEvent => ({ type: 'CANCEL', at });
function through(snapshot: AnyMachineSnapshot, ...events: OrderEvent[]): AnyMachineSnapshot {
  return events.reduce((current, event) => send(current, event)[0], snapshot);
}

test('FULFILLED by one settlement → its retraction → CREATED: what is owed restored, completedAt cleared, nothing emitted', (t) => {
  const [fulfilled] = send(create()[0], settle('pay_1', 100_000_000n, '2026-11-23T12:05:00.000Z'));
  const [snapshot, emitted] = send(fulfilled, retract('pay_1', '2026-11-23T17:00:00.000Z'));
  t.is(snapshot.value, 'CREATED');
  t.like(context(snapshot), { remainingUsdcAmount: 100_000_000n, completedAt: null, updatedAt: '2026-11-23T17:00:00.000Z' });
  t.deepEqual(context(snapshot).settlements, []);
  t.deepEqual(emitted, []);
});

test('FULFILLED by two settlements → one retracted → PARTIALLY_FULFILLED with its amount owed again; the other retracted → CREATED', (t) => {
  const fulfilled = through(create()[0], settle('pay_1', 40_000_000n), settle('pay_2', 60_000_000n, '2026-11-23T13:00:00.000Z'));
  t.is(fulfilled.value, 'FULFILLED');
  const [partial, emitted] = send(fulfilled, retract('pay_2'));
  t.is(partial.value, 'PARTIALLY_FULFILLED');
  t.like(context(partial), { remainingUsdcAmount: 60_000_000n, completedAt: null });
  t.deepEqual(
    context(partial).settlements.map((s) => s.paymentId),
    ['pay_1'],
  );
  t.deepEqual(emitted, []);

  const [created] = send(partial, retract('pay_1'));
  t.is(created.value, 'CREATED');
  t.is(context(created).remainingUsdcAmount, 100_000_000n);
});

test('PARTIALLY_FULFILLED → a retraction leaving other settlements stays PARTIALLY_FULFILLED; the last one → CREATED', (t) => {
  const partial = through(create()[0], settle('pay_1', 10_000_000n), settle('pay_2', 20_000_000n));
  const [still] = send(partial, retract('pay_1'));
  t.is(still.value, 'PARTIALLY_FULFILLED');
  t.is(context(still).remainingUsdcAmount, 80_000_000n);
  const [created] = send(still, retract('pay_2'));
  t.is(created.value, 'CREATED');
  t.is(context(created).remainingUsdcAmount, 100_000_000n);
  t.deepEqual(context(created).settlements, []);
});

test('an overpayment taken back: owed again from the amount, not the overpayment added back', (t) => {
  const [over] = send(create()[0], settle('pay_1', 150_000_000n));
  const [created] = send(over, retract('pay_1'));
  t.is(created.value, 'CREATED');
  t.is(context(created).remainingUsdcAmount, 100_000_000n);

  const [dust] = send(create()[0], settle('pay_1', 99_600_000n));
  t.is(dust.value, 'FULFILLED');
  t.is(context(send(dust, retract('pay_1'))[0]).remainingUsdcAmount, 100_000_000n);
});

test('a late extra settlement on a FULFILLED order taken back: still FULFILLED, completedAt kept, no second ORDER_FULFILLED', (t) => {
  const fulfilled = through(create()[0], settle('pay_1', 100_000_000n, '2026-11-23T12:05:00.000Z'), settle('pay_2', 5_000_000n, '2026-11-23T16:00:00.000Z'));
  const [snapshot, emitted] = send(fulfilled, retract('pay_2'));
  t.is(snapshot.value, 'FULFILLED');
  t.like(context(snapshot), { remainingUsdcAmount: 0n, completedAt: '2026-11-23T12:05:00.000Z' });
  t.deepEqual(
    context(snapshot).settlements.map((s) => s.paymentId),
    ['pay_1'],
  );
  t.deepEqual(emitted, []);

  // The settlement that fulfilled it taken back instead: the late one alone does not cover it.
  const [partial] = send(fulfilled, retract('pay_1'));
  t.is(partial.value, 'PARTIALLY_FULFILLED');
  t.like(context(partial), { remainingUsdcAmount: 95_000_000n, completedAt: null });
});

test('the fulfilling settlement taken back while later ones still cover the order: FULFILLED, completed when they first covered it', (t) => {
  const fulfilled = through(
    create()[0],
    settle('pay_1', 50_000_000n, '2026-11-23T12:05:00.000Z'),
    settle('pay_2', 60_000_000n, '2026-11-23T13:00:00.000Z'),
    settle('pay_3', 60_000_000n, '2026-11-23T15:00:00.000Z'),
  );
  t.is(context(fulfilled).completedAt, '2026-11-23T13:00:00.000Z');
  const [snapshot, emitted] = send(fulfilled, retract('pay_2'));
  t.is(snapshot.value, 'FULFILLED');
  t.like(context(snapshot), { remainingUsdcAmount: 0n, completedAt: '2026-11-23T15:00:00.000Z' });
  t.deepEqual(emitted, []);
});

test('retracting a payment the order holds no settlement of is a no-op in every status, taken so it is never a dead letter', (t) => {
  const statuses = {
    CREATED: create()[0],
    PARTIALLY_FULFILLED: send(create()[0], settle('pay_1', 40_000_000n))[0],
    FULFILLED: send(create()[0], settle('pay_1', 100_000_000n))[0],
    CANCELLED: send(create()[0], cancelAt())[0],
  };
  for (const [status, from] of Object.entries(statuses)) {
    t.true(from.can(retract('pay_unknown')), status);
    const [snapshot, emitted] = send(from, retract('pay_unknown'));
    t.is(snapshot.value, status);
    t.deepEqual(snapshot.context, from.context, `${status}: nothing changes, not even updatedAt`);
    t.deepEqual(emitted, []);
  }
});

test('a retraction told twice counts once', (t) => {
  const fulfilled = through(create()[0], settle('pay_1', 40_000_000n), settle('pay_2', 60_000_000n));
  const once = send(fulfilled, retract('pay_2'))[0];
  const [twice, emitted] = send(once, retract('pay_2', '2026-11-23T18:00:00.000Z'));
  t.is(twice.value, 'PARTIALLY_FULFILLED');
  t.deepEqual(twice.context, once.context);
  t.deepEqual(emitted, []);
});

test('retract then re-apply (the fulfilment mined again) counts the payment once, and fulfils again with ORDER_FULFILLED', (t) => {
  const [fulfilled] = send(create()[0], settle('pay_1', 100_000_000n, '2026-11-23T12:05:00.000Z'));
  const retracted = send(fulfilled, retract('pay_1'))[0];
  t.true(retracted.can(settle('pay_1', 100_000_000n)), 'the payment may settle again');
  const [again, emitted] = send(retracted, settle('pay_1', 100_000_000n, '2026-11-23T17:05:00.000Z'));
  t.is(again.value, 'FULFILLED');
  t.deepEqual(context(again).settlements, [{ paymentId: 'pay_1', usdcAmount: 100_000_000n, at: '2026-11-23T17:05:00.000Z' }]);
  t.like(context(again), { remainingUsdcAmount: 0n, completedAt: '2026-11-23T17:05:00.000Z' });
  t.deepEqual(
    emitted.map((event) => event.type),
    ['ORDER_FULFILLED'],
  );
  t.false(again.can(settle('pay_1', 100_000_000n)), 'and not twice');
});

test('a CANCELLED order keeps its status when a late settlement is taken back; what is owed is restored', (t) => {
  const late = through(create()[0], cancelAt('2026-11-23T14:00:00.000Z'), settle('pay_late', 100_000_000n, '2026-11-23T15:00:00.000Z'));
  const [snapshot, emitted] = send(late, retract('pay_late'));
  t.is(snapshot.value, 'CANCELLED');
  t.like(context(snapshot), { remainingUsdcAmount: 100_000_000n, cancelledAt: '2026-11-23T14:00:00.000Z', completedAt: null });
  t.deepEqual(context(snapshot).settlements, []);
  t.deepEqual(emitted, []);
});

test('a retraction dated before the order last changed does not move updatedAt back', (t) => {
  const partial = through(create()[0], settle('pay_1', 10_000_000n, '2026-11-23T12:05:00.000Z'), settle('pay_2', 10_000_000n, '2026-11-23T13:00:00.000Z'));
  const [snapshot] = send(partial, retract('pay_1', '2026-11-23T12:05:00.000Z'));
  t.is(context(snapshot).updatedAt, '2026-11-23T13:00:00.000Z');
});

test('an OPEN order: its settlement taken back leaves the saved amount owed again', (t) => {
  const open = through(
    create(openOrderInput())[0],
    { type: 'SET_AMOUNT', usdcAmount: 25_000_000n, fiat: { amount: '23.00', currency: 'EUR' }, at: '2026-11-23T12:00:30.000Z' },
    settle('pay_1', 25_000_000n),
  );
  t.is(open.value, 'FULFILLED');
  const [snapshot] = send(open, retract('pay_1'));
  t.is(snapshot.value, 'CREATED');
  t.like(context(snapshot), { requestedUsdcAmount: 25_000_000n, remainingUsdcAmount: 25_000_000n, amountVersion: 1 });
});
