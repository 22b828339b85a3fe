/**
 * What the order keeps of its payments (machines/order/order-payments.ts), the amount
 * lock it derives from them (hosted-fields.ts), and the open amount it takes while
 * unlocked (SET_AMOUNT). Driven with xstate's pure initialTransition/transition, as
 * order-machine.test.ts is; the order's tells are read from the returned actions.
 */
import test from 'ava';
import { initialTransition, transition } from 'xstate';
import {
  activePayment,
  amountLock,
  hostedOrderFields,
  orderMachine,
  paymentSelectedRail,
  replaceable,
  supersededBy,
  withPayment,
  type OrderContext,
  type OrderEmitted,
  type OrderEvent,
  type OrderInput,
  type OrderStatus,
  type PaymentSummary,
} from '../../../machines/order/index.js';
import { paymentMachine, type PaymentEvent } from '../../../machines/payment/index.js';
import { fixedOrderInput, openOrderInput } from '../../support/order-input.js';
import { INTENT_HASH, livePaymentInput, OWED_USDC } from '../../support/payment-input.js';

type Snapshot = ReturnType<typeof orderMachine.resolveState>;
type Action = { type: string; params?: unknown };
type Step = [snapshot: Snapshot, actions: Action[]];
type Tell = { to: { kind: string; id: string }; event: Record<string, unknown> & { type: string } };

function create(input: OrderInput = openOrderInput()): Step {
  const [snapshot, actions] = initialTransition(orderMachine, input);
  return [snapshot, actions as Action[]];
}

function send(snapshot: Snapshot, event: OrderEvent): Step {
  const [next, actions] = transition(orderMachine, snapshot, event);
  return [next, actions as Action[]];
}

function run(snapshot: Snapshot, ...events: OrderEvent[]): Snapshot {
  return events.reduce((current, event) => send(current, event)[0], snapshot);
}

const context = (snapshot: Snapshot) => snapshot.context as OrderContext;
const emitted = (actions: Action[]) =>
  actions.filter((action) => action.type === 'xstate.emit').map((action) => (action.params as { event: OrderEmitted }).event);
const tells = (actions: Action[]) => actions.filter((action) => action.type === 'tell').map((action) => action.params as Tell);
const lockOf = (snapshot: Snapshot) => amountLock(context(snapshot), snapshot.value as OrderStatus);

function summary(overrides: Partial<PaymentSummary> & Pick<PaymentSummary, 'id' | 'createdAt'>): PaymentSummary {
  return { rail: 'venmo', status: 'CREATED', step: 'SIGNALLING', railIdentifier: null, paid: false, ...overrides };
}
const updated = (payment: PaymentSummary): OrderEvent => ({ type: 'PAYMENT_UPDATED', payment });
const setAmount = (usdcAmount: bigint, amount: string, amountVersion?: number, at = '2026-11-23T12:00:30.000Z'): OrderEvent => ({
  type: 'SET_AMOUNT',
  usdcAmount,
  fiat: { amount, currency: 'EUR' },
  amountVersion,
  at,
});
const settle = (paymentId: string, usdcAmount: bigint, at = '2026-11-23T12:20:00.000Z'): OrderEvent => ({
  type: 'APPLY_SETTLEMENT',
  paymentId,
  usdcAmount,
  at,
});

const T1 = '2026-11-23T12:01:00.000Z';
const T2 = '2026-11-23T12:02:00.000Z';
const T3 = '2026-11-23T12:03:00.000Z';

// === the summaries ================================================================

test('PAYMENT_UPDATED upserts the attempt: one summary per id, its latest report, newest attempt first', (t) => {
  const [order] = create(fixedOrderInput());
  const a = summary({ id: 'pay_a', createdAt: T1 });
  const b = summary({ id: 'pay_b', createdAt: T2, rail: 'zelle' });
  const withBoth = run(order, updated(a), updated(b));
  t.deepEqual(
    context(withBoth).payments.map((payment) => payment.id),
    ['pay_b', 'pay_a'],
  );

  // A report from the older attempt replaces its summary in place and keeps the order newest first.
  const aLater = { ...a, status: 'EXPIRED' as const, step: null, railIdentifier: INTENT_HASH };
  const [after] = send(withBoth, updated(aLater));
  t.deepEqual(context(after).payments, [b, aLater]);

  // Reports arriving out of creation order still sort newest first.
  const c = summary({ id: 'pay_c', createdAt: T3 });
  t.deepEqual(
    context(run(order, updated(c), updated(a), updated(b))).payments.map((payment) => payment.id),
    ['pay_c', 'pay_b', 'pay_a'],
  );
});

test('withPayment: newest createdAt first, a tie broken by id descending, the input left as it was', (t) => {
  const a = summary({ id: 'pay_a', createdAt: T1 });
  const b = summary({ id: 'pay_b', createdAt: T1 });
  const known = [a];
  t.deepEqual(
    withPayment(known, b).map((payment) => payment.id),
    ['pay_b', 'pay_a'],
  );
  t.deepEqual(
    withPayment([b], a).map((payment) => payment.id),
    ['pay_b', 'pay_a'],
  );
  t.deepEqual(known, [a], 'not mutated');
  t.deepEqual(withPayment([], a), [a]);
});

test('activePayment (hasActivePayment) is the attempt still CREATED, whatever its step', (t) => {
  t.is(activePayment([]), null);
  const open = summary({ id: 'pay_open', createdAt: T1, step: 'VERIFYING' });
  const expired = summary({ id: 'pay_exp', createdAt: T2, status: 'EXPIRED', step: null, rail: 'zelle' });
  t.is(activePayment([expired, open]), open);
  t.is(activePayment([expired]), null);
  t.is(activePayment([summary({ id: 'pay_s', createdAt: T1, status: 'SETTLED', step: null })]), null);
});

test('paymentSelectedRail: the rail in progress, else the newest expired, else null', (t) => {
  const inProgress = summary({ id: 'pay_1', createdAt: T1, rail: 'venmo' });
  const expiredOld = summary({ id: 'pay_2', createdAt: T2, status: 'EXPIRED', step: null, rail: 'zelle' });
  const expiredNew = summary({ id: 'pay_3', createdAt: T3, status: 'EXPIRED', step: null, rail: 'cashapp' });
  const cancelled = summary({ id: 'pay_4', createdAt: T3, status: 'CANCELLED', step: null, rail: 'wise' });
  const failed = summary({ id: 'pay_5', createdAt: T3, status: 'FAILED', step: null, rail: 'revolut' });

  t.is(paymentSelectedRail([]), null);
  t.is(paymentSelectedRail(withPayment(withPayment([inProgress], expiredOld), expiredNew)), 'venmo', 'in progress wins over a newer expired one');
  t.is(paymentSelectedRail(withPayment([expiredOld], expiredNew)), 'cashapp', 'the most recent expired');
  t.is(paymentSelectedRail([cancelled, failed]), null, 'cancelled and failed attempts select nothing');
  t.is(paymentSelectedRail([cancelled, expiredOld]), 'zelle');
});

// === a newer attempt replaces older open ones =====================================

test('a newer open attempt makes the order tell older SIGNALLING and AWAITING_PAYMENT attempts to CANCEL with reason REPLACED', (t) => {
  const signalling = summary({ id: 'pay_a', createdAt: T1, step: 'SIGNALLING' });
  const awaiting = summary({ id: 'pay_b', createdAt: T2, step: 'AWAITING_PAYMENT', railIdentifier: INTENT_HASH });
  const order = run(create(fixedOrderInput())[0], updated(signalling), updated(awaiting));

  const [after, actions] = send(order, updated(summary({ id: 'pay_c', createdAt: T3, rail: 'zelle' })));
  const sent = tells(actions);
  t.deepEqual(
    sent.sort((x, y) => x.to.id.localeCompare(y.to.id)),
    [
      { to: { kind: 'payment', id: 'pay_a' }, event: { type: 'CANCEL', reason: 'REPLACED', at: T3 } },
      { to: { kind: 'payment', id: 'pay_b' }, event: { type: 'CANCEL', reason: 'REPLACED', at: T3 } },
    ],
  );
  t.is(context(after).payments[0]!.id, 'pay_c');
  t.deepEqual(emitted(actions), []);
});

test('an older attempt whose proof is VERIFYING or FULFILLING is left to finish, and an ended one is not told', (t) => {
  const order = run(
    create(fixedOrderInput())[0],
    updated(summary({ id: 'pay_v', createdAt: T1, step: 'VERIFYING', paid: true })),
    updated(summary({ id: 'pay_f', createdAt: T1, step: 'FULFILLING', paid: true })),
    updated(summary({ id: 'pay_x', createdAt: T1, status: 'EXPIRED', step: null })),
  );
  const [, actions] = send(order, updated(summary({ id: 'pay_new', createdAt: T2 })));
  t.deepEqual(tells(actions), []);
});

test('an older attempt reporting again does not cancel the newer one; an ended newest attempt cancels nothing', (t) => {
  const older = summary({ id: 'pay_a', createdAt: T1 });
  const newer = summary({ id: 'pay_b', createdAt: T2 });
  const order = run(create(fixedOrderInput())[0], updated(older), updated(newer));
  const [, olderAgain] = send(order, updated({ ...older, step: 'AWAITING_PAYMENT', railIdentifier: INTENT_HASH }));
  t.deepEqual(tells(olderAgain), []);

  const [, endedNewest] = send(run(create(fixedOrderInput())[0], updated(older)), updated({ ...newer, status: 'CANCELLED', step: null }));
  t.deepEqual(tells(endedNewest), []);

  t.deepEqual(supersededBy([newer], older), []);
  t.deepEqual(supersededBy([older], newer), [older]);
  t.deepEqual(supersededBy([older], { ...older }), [], 'an attempt never replaces itself');
});

test('replaceable: an open attempt is, unless its proof or transfer is in hand; an ended one is not', (t) => {
  for (const step of ['SIGNALLING', 'AWAITING_PAYMENT', 'AWAITING_TRANSFER'] as const) t.true(replaceable({ status: 'CREATED', step }), step);
  for (const step of ['VERIFYING', 'FULFILLING', 'AWAITING_SETTLEMENT', 'CONVERTING'] as const) t.false(replaceable({ status: 'CREATED', step }), step);
  for (const status of ['EXPIRED', 'CANCELLED', 'SETTLED', 'FAILED'] as const) t.false(replaceable({ status, step: null }), status);
});

// Source bug: supersededBy (machines/order/order-payments.ts:185) keeps every open attempt
// with createdAt <= the reporting one's, so of two attempts created in the same
// millisecond each counts as older than the other, and each report cancels the other.
test('attempts created at the same instant: only the one withPayment orders older is replaced', (t) => {
  const a = summary({ id: 'pay_a', createdAt: T1 });
  const b = summary({ id: 'pay_b', createdAt: T1 });
  t.deepEqual(withPayment([a], b)[0], b, 'pay_b is the newer of the two');
  const order = run(create(fixedOrderInput())[0], updated(a), updated(b));
  // pay_a, still unaware of its CANCEL, reports it reached AWAITING_PAYMENT.
  const [, actions] = send(order, updated({ ...a, step: 'AWAITING_PAYMENT', railIdentifier: INTENT_HASH }));
  t.deepEqual(tells(actions), [], 'the newer attempt pay_b must not be cancelled by the older pay_a');
});

// === the amount lock ==============================================================

test('amountLock: null → PAYMENT_IN_PROGRESS → PAYMENT_MAY_SETTLE → PAID as an attempt moves on', (t) => {
  let order = create()[0];
  t.is(lockOf(order), null, 'nothing open');
  order = send(order, setAmount(25_000_000n, '23.00'))[0];
  t.is(lockOf(order), null, 'a saved amount alone does not lock');

  const attempt = summary({ id: 'pay_1', createdAt: T1 });
  order = send(order, updated(attempt))[0];
  t.is(lockOf(order), 'PAYMENT_IN_PROGRESS', 'SIGNALLING');
  order = send(order, updated({ ...attempt, step: 'AWAITING_PAYMENT' }))[0];
  t.is(lockOf(order), 'PAYMENT_IN_PROGRESS', 'AWAITING_PAYMENT');
  t.is(hostedOrderFields(context(order), 'CREATED').amountLock, 'PAYMENT_IN_PROGRESS');

  order = send(order, updated({ ...attempt, step: 'AWAITING_PAYMENT', paid: true }))[0];
  t.is(lockOf(order), 'PAYMENT_MAY_SETTLE', 'the customer said they sent it');
  for (const step of ['VERIFYING', 'FULFILLING'] as const) {
    order = send(order, updated({ ...attempt, step, paid: false }))[0];
    t.is(lockOf(order), 'PAYMENT_MAY_SETTLE', step);
  }

  order = send(order, settle('pay_1', 25_000_000n))[0];
  t.is(order.value, 'FULFILLED');
  t.is(lockOf(order), 'PAID');
  t.is(hostedOrderFields(context(order), 'FULFILLED').amountLock, 'PAID');
});

test('amountLock: a partial settlement is PAID already; an attempt that ended unlocks; a cancelled unpaid order has no lock', (t) => {
  const attempt = summary({ id: 'pay_1', createdAt: T1 });
  const partial = run(create()[0], setAmount(25_000_000n, '23.00'), updated(attempt), settle('pay_1', 10_000_000n));
  t.is(partial.value, 'PARTIALLY_FULFILLED');
  t.is(lockOf(partial), 'PAID');

  const ended = run(create()[0], setAmount(25_000_000n, '23.00'), updated(attempt), updated({ ...attempt, status: 'EXPIRED', step: null }));
  t.is(lockOf(ended), null);

  const cancelled = run(create()[0], updated(attempt), { type: 'CANCEL', at: T2 });
  t.is(cancelled.value, 'CANCELLED');
  t.is(lockOf(cancelled), null);
});

// === SET_AMOUNT ===================================================================

test('SET_AMOUNT on an OPEN order sets requested and remaining, bumps amountVersion, keeps the input, emits ORDER_AMOUNT_SET', (t) => {
  const [order] = create();
  t.true(order.can(setAmount(25_000_000n, '23.00')));
  const [first, actions] = send(order, setAmount(25_000_000n, '23.00', 0, '2026-11-23T12:00:30.000Z'));
  t.is(first.value, 'CREATED');
  t.like(context(first), {
    requestedUsdcAmount: 25_000_000n,
    remainingUsdcAmount: 25_000_000n,
    amountVersion: 1,
    savedInput: { amount: '23.00', currency: 'EUR' },
    updatedAt: '2026-11-23T12:00:30.000Z',
  });
  const events = emitted(actions);
  t.deepEqual(
    events.map((event) => event.type),
    ['ORDER_AMOUNT_SET'],
  );
  const event = events[0]!;
  if (event.type !== 'ORDER_AMOUNT_SET') return t.fail();
  t.deepEqual(event.amountChange, { previousAmountUsdc: null, newAmountUsdc: '25', fiat: { amount: '23.00', currency: 'EUR' }, amountVersion: 1 });
  t.like(event.order, { amountMode: 'OPEN', status: 'CREATED', requestedUsdcAmount: '25', remainingUsdcAmount: '25', amountVersion: 1 });

  const [second, secondActions] = send(first, setAmount(12_500_000n, '11.50', 1, '2026-11-23T12:00:50.000Z'));
  t.like(context(second), {
    requestedUsdcAmount: 12_500_000n,
    remainingUsdcAmount: 12_500_000n,
    amountVersion: 2,
    savedInput: { amount: '11.50', currency: 'EUR' },
  });
  const again = emitted(secondActions)[0]!;
  if (again.type !== 'ORDER_AMOUNT_SET') return t.fail();
  t.deepEqual(again.amountChange, { previousAmountUsdc: '25', newAmountUsdc: '12.5', fiat: { amount: '11.50', currency: 'EUR' }, amountVersion: 2 });
});

test('SET_AMOUNT is refused while the amount is locked, and taken again once the attempt ends', (t) => {
  const attempt = summary({ id: 'pay_1', createdAt: T1 });
  const base = send(create()[0], setAmount(25_000_000n, '23.00'))[0];
  const change = setAmount(30_000_000n, '27.60', 1);

  const inProgress = send(base, updated(attempt))[0];
  t.is(lockOf(inProgress), 'PAYMENT_IN_PROGRESS');
  t.false(inProgress.can(change));
  const [unchanged, actions] = send(inProgress, change);
  t.like(context(unchanged), { requestedUsdcAmount: 25_000_000n, amountVersion: 1 });
  t.deepEqual(emitted(actions), []);

  const maySettle = send(base, updated({ ...attempt, step: 'VERIFYING', paid: true }))[0];
  t.false(maySettle.can(change));

  const paid = run(base, updated(attempt), settle('pay_1', 5_000_000n));
  t.false(paid.can(change));

  const reopened = send(inProgress, updated({ ...attempt, status: 'CANCELLED', step: null }))[0];
  t.true(reopened.can(change));
});

test('SET_AMOUNT from a version the amount has moved past is refused, and changes nothing', (t) => {
  const [first] = send(create()[0], setAmount(25_000_000n, '23.00', 0));
  // A second page saved from version 0 too: the order is at 1, so it lost.
  const stale = setAmount(12_500_000n, '11.50', 0);
  t.false(first.can(stale));
  const [unchanged, actions] = send(first, stale);
  t.like(context(unchanged), { requestedUsdcAmount: 25_000_000n, amountVersion: 1 });
  t.deepEqual(emitted(actions), []);
  // Without a version the save is unconditional, as before.
  t.true(first.can(setAmount(12_500_000n, '11.50')));
});

test('SET_AMOUNT is refused on a FIXED order', (t) => {
  const [order] = create(fixedOrderInput());
  t.false(order.can(setAmount(25_000_000n, '23.00')));
});

// === with the payment machine's own reports =======================================

test('what the payment machine tells the order drives the lock, and its settlement fulfils the order after PAYMENT_SETTLED', (t) => {
  const forOrder = (actions: Action[]) =>
    tells(actions)
      .filter((tell) => tell.to.kind === 'order')
      .map((tell) => tell.event as unknown as OrderEvent);
  const [order0] = create(fixedOrderInput({ requestedUsdcAmount: OWED_USDC }));
  let order = order0;
  const deliver = (actions: Action[]) => {
    const orderActions: Action[] = [];
    for (const event of forOrder(actions)) {
      const [next, produced] = send(order, event);
      order = next;
      orderActions.push(...produced);
    }
    return orderActions;
  };

  let [payment, paymentActions] = initialTransition(paymentMachine, livePaymentInput());
  deliver(paymentActions as Action[]);
  t.is(lockOf(order), 'PAYMENT_IN_PROGRESS');
  t.like(context(order).payments[0], { id: 'pay_live', step: 'SIGNALLING' });

  const events: PaymentEvent[] = [
    {
      type: 'TRANSACTION_OUTCOME',
      transactionId: 'tx_1',
      purpose: 'signalIntent',
      outcome: { status: 'MINED', hash: '0x01', reason: null, at: Date.parse(T1) },
    },
    { type: 'INTENT_SIGNALED', intentHash: INTENT_HASH, signalTimestamp: Date.parse(T1) / 1000, expiryTime: Date.parse(T1) / 1000 + 86_400, at: T1 },
    { type: 'SUBMIT_PROOF', proof: { encryptedSessionMaterial: 'sealed', params: {} }, at: T2 },
  ];
  for (const event of events) {
    [payment, paymentActions] = transition(paymentMachine, payment, event);
    deliver(paymentActions as Action[]);
  }
  t.is(lockOf(order), 'PAYMENT_MAY_SETTLE');
  t.like(context(order).payments[0], { step: 'VERIFYING', paid: true, railIdentifier: INTENT_HASH });

  [payment, paymentActions] = transition(paymentMachine, payment, {
    type: 'CHAIN_FACT',
    fact: {
      id: 'fact_1',
      transactionHash: '0xf1',
      blockTimestamp: String(Date.parse(T3) / 1000),
      intentFulfilled: {
        intentHash: INTENT_HASH,
        amount: livePaymentInput().price.netUsdc.toString(),
        fundsTransferredTo: '0x1111111111111111111111111111111111111111',
      },
    },
  });
  const paymentEmitted = (paymentActions as Action[]).filter((action) => action.type === 'xstate.emit');
  t.is(paymentEmitted.length, 1, 'PAYMENT_SETTLED first');
  const orderActions = deliver(paymentActions as Action[]);
  t.is(order.value, 'FULFILLED');
  t.deepEqual(
    emitted(orderActions).map((event) => event.type),
    ['ORDER_FULFILLED'],
  );
  t.is(context(order).completedAt, T3);
  t.is(lockOf(order), 'PAID');
  t.like(context(order).payments[0], { id: 'pay_live', status: 'SETTLED', step: null });
});

// === a settlement taken back by a chain reorganisation ============================

test('amountLock: an attempt waiting for its retracted settlement to land again may settle; nothing settled is no longer PAID', (t) => {
  const attempt = summary({ id: 'pay_1', createdAt: T1, step: 'FULFILLING', paid: true });
  const fulfilled = run(
    create()[0],
    setAmount(25_000_000n, '23.00'),
    updated(attempt),
    settle('pay_1', 25_000_000n),
    updated({ ...attempt, status: 'SETTLED', step: null }),
  );
  t.is(lockOf(fulfilled), 'PAID');
  const retracted = run(
    fulfilled,
    { type: 'RETRACT_SETTLEMENT', paymentId: 'pay_1', at: T3 },
    updated({ ...attempt, status: 'CREATED', step: 'AWAITING_SETTLEMENT', paid: false }),
  );
  t.is(retracted.value, 'CREATED');
  t.is(lockOf(retracted), 'PAYMENT_MAY_SETTLE', 'the amount stays locked: the money may land again');
  t.false(retracted.can(setAmount(30_000_000n, '27.60', 1)));
  t.is(amountLock(context(retracted), 'CANCELLED'), null, 'a cancelled order with nothing settled has no lock');
});

test('an attempt waiting for its retracted settlement is never replaced by a newer one', (t) => {
  const waiting = summary({ id: 'pay_a', createdAt: T1, step: 'AWAITING_SETTLEMENT', railIdentifier: INTENT_HASH });
  const order = run(create(fixedOrderInput())[0], updated(waiting));
  const [, actions] = send(order, updated(summary({ id: 'pay_b', createdAt: T2 })));
  t.deepEqual(tells(actions), []);
  t.is(activePayment([waiting]), waiting, 'it is still an active attempt');
});

/** The order and one payment, each payment step's tells to the order delivered in order, as the runtime does. */
function pair(orderInput: OrderInput) {
  let order = create(orderInput)[0];
  let [payment, paymentActions] = initialTransition(paymentMachine, livePaymentInput());
  const orderActions: Action[] = [];
  const deliver = (actions: Action[]) => {
    for (const tell of tells(actions).filter((found) => found.to.kind === 'order')) {
      const [next, produced] = send(order, tell.event as unknown as OrderEvent);
      order = next;
      orderActions.push(...produced);
    }
  };
  deliver(paymentActions as Action[]);
  return {
    order: () => order,
    payment: () => payment,
    /** Sends events to the payment; the order's own actions (its emitted events) from the deliveries. */
    pay(...events: PaymentEvent[]): { payment: Action[]; order: Action[] } {
      const paid: Action[] = [];
      orderActions.length = 0;
      for (const event of events) {
        [payment, paymentActions] = transition(paymentMachine, payment, event);
        paid.push(...(paymentActions as Action[]));
        deliver(paymentActions as Action[]);
      }
      return { payment: paid, order: [...orderActions] };
    },
  };
}

const signalled: PaymentEvent[] = [
  { type: 'TRANSACTION_OUTCOME', transactionId: 'tx_1', purpose: 'signalIntent', outcome: { status: 'MINED', hash: '0x01', reason: null, at: Date.parse(T1) } },
  { type: 'INTENT_SIGNALED', intentHash: INTENT_HASH, signalTimestamp: Date.parse(T1) / 1000, expiryTime: Date.parse(T1) / 1000 + 86_400, at: T1 },
];
const fulfilment = (id: string, at: string, retracted?: boolean): PaymentEvent => ({
  type: 'CHAIN_FACT',
  fact: {
    id,
    transactionHash: '0xf1',
    blockTimestamp: String(Date.parse(at) / 1000),
    ...(retracted === undefined ? {} : { retracted }),
    intentFulfilled: {
      intentHash: INTENT_HASH,
      amount: livePaymentInput().price.netUsdc.toString(),
      fundsTransferredTo: '0x1111111111111111111111111111111111111111',
    },
  },
});

test('through both machines: settled → its fact retracted → the order back to CREATED → the re-indexed fact fulfils it again, counted once', (t) => {
  const both = pair(fixedOrderInput({ requestedUsdcAmount: OWED_USDC }));
  both.pay(...signalled);
  const settled = both.pay(fulfilment('fact_1', T3));
  t.is(both.order().value, 'FULFILLED');
  t.deepEqual(
    emitted(settled.order).map((event) => event.type),
    ['ORDER_FULFILLED'],
  );

  const retracted = both.pay(fulfilment('fact_1', T3, true));
  t.deepEqual(both.payment().value, { CREATED: 'AWAITING_SETTLEMENT' });
  t.is(both.order().value, 'CREATED');
  t.like(context(both.order()), { remainingUsdcAmount: OWED_USDC, completedAt: null, settlements: [] });
  t.like(context(both.order()).payments[0], { id: 'pay_live', status: 'CREATED', step: 'AWAITING_SETTLEMENT' });
  t.is(lockOf(both.order()), 'PAYMENT_MAY_SETTLE');
  t.deepEqual(emitted(retracted.order), [], 'the order emits nothing of its own: the payment announced the retraction');

  // Delivered twice (the indexer's redelivery): the payment does not take it, so the order hears nothing more.
  const twice = both.pay(fulfilment('fact_1', T3, true));
  t.deepEqual(twice.payment, []);

  const again = both.pay(fulfilment('fact_1#2', '2026-11-23T12:04:00.000Z'));
  t.is(both.payment().value, 'SETTLED');
  t.is(both.order().value, 'FULFILLED');
  t.deepEqual(
    emitted(again.order).map((event) => event.type),
    ['ORDER_FULFILLED'],
  );
  t.deepEqual(
    context(both.order()).settlements.map((settlement) => settlement.paymentId),
    ['pay_live'],
    'counted once',
  );
  t.like(context(both.order()), { remainingUsdcAmount: 0n, completedAt: '2026-11-23T12:04:00.000Z' });
  t.is(lockOf(both.order()), 'PAID');
});

test('through both machines: an attempt EXPIRED on an open order, a late settlement still fulfils the order (document 1), and its retraction reopens it', (t) => {
  const both = pair(fixedOrderInput({ requestedUsdcAmount: OWED_USDC }));
  // The window timer the attempt armed on creation, as the runtime fires it.
  const [, created] = initialTransition(paymentMachine, livePaymentInput());
  const window = (created as Action[])
    .map((action) => action.params as { delay?: number; event?: PaymentEvent })
    .find((params) => typeof params?.delay === 'number')!.event!;
  both.pay(...signalled, window);
  t.is(both.payment().value, 'EXPIRED');
  t.is(both.order().value, 'CREATED', 'the order stays open when its attempt expires');

  const late = both.pay(fulfilment('fact_late', '2026-11-23T13:30:00.000Z'));
  t.is(both.payment().value, 'SETTLED');
  t.is(both.order().value, 'FULFILLED');
  t.deepEqual(
    emitted(late.order).map((event) => event.type),
    ['ORDER_FULFILLED'],
  );

  both.pay(fulfilment('fact_late', '2026-11-23T13:30:00.000Z', true));
  t.deepEqual(both.payment().value, { CREATED: 'AWAITING_SETTLEMENT' });
  t.is(both.order().value, 'CREATED');
  t.is(context(both.order()).remainingUsdcAmount, OWED_USDC);
});

test('through both machines: a settlement after the order was CANCELLED is recorded but the order stays CANCELLED; its retraction leaves it CANCELLED', (t) => {
  const both = pair(fixedOrderInput({ requestedUsdcAmount: OWED_USDC }));
  both.pay(...signalled);
  // The dashboard cancels the order while the customer's payment is on its way.
  const [cancelled] = send(both.order(), { type: 'CANCEL', at: T2 });
  t.is(cancelled.value, 'CANCELLED');
  const late = run(cancelled, settle('pay_live', OWED_USDC, T3));
  t.is(late.value, 'CANCELLED', 'document 1 moves only CREATED or PARTIALLY_FULFILLED to FULFILLED');
  t.like(context(late), { remainingUsdcAmount: 0n, completedAt: null });
  const [retracted, actions] = send(late, { type: 'RETRACT_SETTLEMENT', paymentId: 'pay_live', at: T3 });
  t.is(retracted.value, 'CANCELLED');
  t.like(context(retracted), { remainingUsdcAmount: OWED_USDC, settlements: [] });
  t.deepEqual(emitted(actions), []);
});
