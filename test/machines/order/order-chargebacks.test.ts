/**
 * An order's chargebacks (machines/order/order-chargebacks.ts, docs/chargebacks.md), on the pure
 * order machine: the fact completed from the order's refunds, the status by amount, what is
 * announced and told, a repeat counting once, a later settlement changing the picture; and a
 * property over random histories of settlements, retractions and chargebacks, told twice or not.
 */
import test from 'ava';
import fc from 'fast-check';
import { initialTransition, transition, type AnyMachineSnapshot } from 'xstate';
import {
  chargebackedUsdc,
  orderMachine,
  refundOverlapOf,
  settledUsdc,
  toCheckoutOrder,
  type OrderContext,
  type OrderEmitted,
  type OrderEvent,
  type OrderStatus,
} from '../../../machines/order/index.js';
import type { OrderRefund } from '../../../machines/order/order-types.js';
import { parseUsdc } from '../../../machines/money.js';
import type { ChargebackClaim } from '../../../machines/payment/index.js';
import { fixedOrderInput } from '../../support/order-input.js';

type Step = { snapshot: AnyMachineSnapshot; emitted: OrderEmitted[]; tells: Array<{ to: { kind: string; id: string }; event: { type: string } }> };

const AT = '2026-11-23T12:05:00.000Z';

function stepOf([snapshot, actions]: [AnyMachineSnapshot, Array<{ type: string; params?: unknown }>]): Step {
  return {
    snapshot,
    emitted: actions.filter((action) => action.type === 'xstate.emit').map((action) => (action.params as { event: OrderEmitted }).event),
    tells: actions.filter((action) => action.type === 'tell').map((action) => action.params as Step['tells'][number]),
  };
}

const create = () => stepOf(initialTransition(orderMachine, fixedOrderInput()));
const send = (snapshot: AnyMachineSnapshot, event: OrderEvent) =>
  stepOf(transition(orderMachine, snapshot as ReturnType<typeof orderMachine.resolveState>, event));
const context = (snapshot: AnyMachineSnapshot) => snapshot.context as OrderContext;
const settle = (paymentId: string, usdc: bigint): OrderEvent => ({ type: 'APPLY_SETTLEMENT', paymentId, usdcAmount: usdc * 1_000_000n, at: AT });
const claim = (paymentId: string, disputeId: string, units: bigint): ChargebackClaim => ({
  paymentId,
  intentHash: `0x${'ab'.repeat(32)}`,
  disputeId,
  compensatedUsdc: String(units),
  disputedAt: AT,
  disputeTxHash: `0x${'cd'.repeat(32)}`,
  factId: `fact_${disputeId}`,
});
const chargeback = (paymentId: string, disputeId: string, usdc: bigint): OrderEvent => ({
  type: 'APPLY_CHARGEBACK',
  claim: claim(paymentId, disputeId, usdc * 1_000_000n),
});

function run(events: OrderEvent[]): Step {
  let step = create();
  for (const event of events) step = send(step.snapshot, event);
  return step;
}

test('a chargeback of all that settled: ORDER_CHARGEBACKED with the fact as trigger, the payment told, FULFILLED unchanged', (t) => {
  const step = send(run([settle('pay_1', 100n)]).snapshot, chargeback('pay_1', 'dsp_1', 100n));
  t.is(step.snapshot.value, 'FULFILLED');
  const order = toCheckoutOrder(context(step.snapshot), 'FULFILLED');
  t.is(order.chargebackStatus, 'CHARGEBACKED');
  const fact = {
    paymentId: 'pay_1',
    intentHash: `0x${'ab'.repeat(32)}`,
    disputeId: 'dsp_1',
    status: 'CHARGEBACKED',
    compensatedUsdcAmount: '100',
    disputedAt: AT,
    disputeTxHash: `0x${'cd'.repeat(32)}`,
    refundOverlap: 'NONE',
    bridgeOrSweepOverlap: null,
  };
  t.deepEqual(order.chargebacks, [fact]);
  t.deepEqual(step.emitted, [{ type: 'ORDER_CHARGEBACKED', order, trigger: { type: 'CHARGEBACK_APPLIED', chargeback: fact } }] as unknown as OrderEmitted[]);
  t.deepEqual(step.tells, [{ to: { kind: 'payment', id: 'pay_1' }, event: { type: 'CHARGEBACK_RECORDED', chargeback: fact } }] as never);
});

test('a chargeback of part of what settled is PARTIALLY_CHARGEBACKED; the same dispute told again counts once, announces nothing and answers the payment again', (t) => {
  const first = send(run([settle('pay_1', 60n), settle('pay_2', 40n)]).snapshot, chargeback('pay_2', 'dsp_2', 40n));
  t.is(toCheckoutOrder(context(first.snapshot), 'FULFILLED').chargebackStatus, 'PARTIALLY_CHARGEBACKED');
  t.deepEqual(
    first.emitted.map((event) => event.type),
    ['ORDER_PARTIALLY_CHARGEBACKED'],
  );
  const again = send(first.snapshot, chargeback('pay_2', 'dsp_2', 40n));
  t.deepEqual(context(again.snapshot).chargebacks, context(first.snapshot).chargebacks);
  t.deepEqual(again.emitted, []);
  t.deepEqual(
    again.tells.map((tell) => tell.event.type),
    ['CHARGEBACK_RECORDED'],
  );
});

test('a compensation above what its payment settled counts only what settled: settled − chargebacked never goes below zero', (t) => {
  // The intent released more than the order was credited (the fees): the stake may compensate up to the release.
  const step = send(run([settle('pay_1', 30n), settle('pay_2', 70n)]).snapshot, chargeback('pay_1', 'dsp_1', 31n));
  t.is(chargebackedUsdc(context(step.snapshot)), 30_000_000n);
  t.is(toCheckoutOrder(context(step.snapshot), 'FULFILLED').chargebackStatus, 'PARTIALLY_CHARGEBACKED');
});

test('a later settlement turns a CHARGEBACKED order PARTIALLY_CHARGEBACKED, announced with the settling payment as trigger, after ORDER_FULFILLED', (t) => {
  const charged = send(run([settle('pay_1', 30n)]).snapshot, chargeback('pay_1', 'dsp_1', 30n));
  t.is(charged.snapshot.value, 'PARTIALLY_FULFILLED');
  t.deepEqual(
    charged.emitted.map((event) => event.type),
    ['ORDER_CHARGEBACKED'],
  );
  const covered = send(charged.snapshot, settle('pay_2', 70n));
  t.is(covered.snapshot.value, 'FULFILLED');
  t.deepEqual(
    covered.emitted.map((event) => event.type),
    ['ORDER_FULFILLED', 'ORDER_PARTIALLY_CHARGEBACKED'],
  );
  t.deepEqual((covered.emitted[1] as { trigger: unknown }).trigger, { type: 'PAYMENT_SETTLED', paymentId: 'pay_2' });
  // A further settlement that leaves the status as it is announces nothing.
  t.deepEqual(send(covered.snapshot, settle('pay_3', 5n)).emitted, []);
});

const bridged = (paymentId: string, status: 'PENDING' | 'SUBMITTED' | 'COMPLETED' | 'FAILED', at: string): OrderEvent => ({
  type: 'BRIDGE_UPDATED',
  paymentId,
  paymentBridgeId: `brg_${paymentId}`,
  status,
  at,
});

test('bridgeOrSweepOverlap: the charged-back payment’s bridge as it last told the order; the status, the events and other payments untouched', (t) => {
  const told = run([settle('pay_1', 60n), settle('pay_2', 40n), bridged('pay_1', 'PENDING', AT), bridged('pay_1', 'SUBMITTED', '2026-11-23T12:06:00.000Z')]);
  t.is(told.snapshot.value, 'FULFILLED');
  t.deepEqual(told.emitted, [], 'a bridge’s news announces nothing');
  const first = send(told.snapshot, chargeback('pay_1', 'dsp_1', 60n));
  t.deepEqual(context(first.snapshot).chargebacks[0]!.bridgeOrSweepOverlap, { paymentBridgeId: 'brg_pay_1', status: 'SUBMITTED' });
  t.deepEqual(
    first.tells.map((tell) => (tell.event as unknown as { chargeback: { bridgeOrSweepOverlap: unknown } }).chargeback.bridgeOrSweepOverlap),
    [{ paymentBridgeId: 'brg_pay_1', status: 'SUBMITTED' }],
    'the payment carries the fact as the order completed it',
  );
  const second = send(first.snapshot, chargeback('pay_2', 'dsp_2', 40n));
  t.is(context(second.snapshot).chargebacks[1]!.bridgeOrSweepOverlap, null, 'a payment never bridged overlaps nothing');
});

test('bridgeOrSweepOverlap: a bridge’s late news never overwrites newer news, and news at the time of a chargeback is read as it stood', (t) => {
  const completed = run([
    settle('pay_1', 100n),
    bridged('pay_1', 'COMPLETED', '2026-11-23T12:09:00.000Z'),
    // A SUBMITTED the transport delivered after the COMPLETED it preceded.
    bridged('pay_1', 'SUBMITTED', '2026-11-23T12:07:00.000Z'),
  ]);
  t.deepEqual(context(completed.snapshot).bridges, [{ paymentId: 'pay_1', paymentBridgeId: 'brg_pay_1', status: 'COMPLETED', at: '2026-11-23T12:09:00.000Z' }]);
  const charged = send(completed.snapshot, chargeback('pay_1', 'dsp_1', 100n));
  t.deepEqual(context(charged.snapshot).chargebacks[0]!.bridgeOrSweepOverlap, { paymentBridgeId: 'brg_pay_1', status: 'COMPLETED' });
  // A bridge that fails after the chargeback changes the order's record of it, never the fact already kept.
  const failed = send(charged.snapshot, bridged('pay_1', 'FAILED', '2026-11-23T12:20:00.000Z'));
  t.deepEqual(context(failed.snapshot).chargebacks[0]!.bridgeOrSweepOverlap, { paymentBridgeId: 'brg_pay_1', status: 'COMPLETED' });
  t.is(context(failed.snapshot).bridges[0]!.status, 'FAILED');
});

test('refundOverlap: the furthest refund decides', (t) => {
  const refund = (state: OrderRefund['state']): OrderRefund => ({
    payoutId: `po_${state}`,
    state,
    requestedUsdc: 1n,
    refundedUsdc: null,
    transactionHash: null,
    metadata: null,
    requestedAt: AT,
    createdAt: null,
    completedAt: null,
    endedAt: null,
  });
  t.is(refundOverlapOf([]), 'NONE');
  t.is(refundOverlapOf([refund('EXPIRED'), refund('CANCELLED')]), 'NONE');
  t.is(refundOverlapOf([refund('RELEASED')]), 'PENDING_HALTED');
  t.is(refundOverlapOf([refund('RELEASED'), refund('RESERVED')]), 'SUBMITTING_OR_UNKNOWN');
  t.is(refundOverlapOf([refund('RESERVED'), refund('PENDING')]), 'ALREADY_SUBMITTED');
  t.is(refundOverlapOf([refund('PENDING'), refund('COMPLETED')]), 'ALREADY_REFUNDED');
});

/** The status from the payments' own view: each settled payment fully covered by its chargeback, some, or none. */
function expectedStatus(ctx: OrderContext): string {
  const settledBy = new Map<string, bigint>();
  for (const settlement of ctx.settlements) settledBy.set(settlement.paymentId, (settledBy.get(settlement.paymentId) ?? 0n) + settlement.usdcAmount);
  const compensatedBy = new Map(ctx.chargebacks.map((fact) => [fact.paymentId, parseUsdc(fact.compensatedUsdcAmount)]));
  const counted = [...settledBy].map(([paymentId, settled]) => {
    const compensated = compensatedBy.get(paymentId) ?? 0n;
    return compensated < settled ? compensated : settled;
  });
  if (counted.every((amount) => amount === 0n)) return 'NONE';
  return [...settledBy].every(([paymentId, settled]) => (compensatedBy.get(paymentId) ?? 0n) >= settled) ? 'CHARGEBACKED' : 'PARTIALLY_CHARGEBACKED';
}

const PAYMENTS = ['pay_1', 'pay_2', 'pay_3'];
const event = fc.oneof(
  fc.record({ kind: fc.constant('settle' as const), payment: fc.constantFrom(...PAYMENTS), usdc: fc.bigInt({ min: 1n, max: 80n }) }),
  fc.record({ kind: fc.constant('retract' as const), payment: fc.constantFrom(...PAYMENTS) }),
  fc.record({
    kind: fc.constant('chargeback' as const),
    payment: fc.constantFrom(...PAYMENTS),
    units: fc.bigInt({ min: 1n, max: 90_000_000n }),
    twice: fc.boolean(),
  }),
);

test('property: for every history, settled − chargebacked ≥ 0, the chargeback status agrees with the payments’ chargebacks, a dispute counts once and no chargeback moves the status', (t) => {
  fc.assert(
    fc.property(fc.array(event, { maxLength: 14 }), (history) => {
      let step = create();
      for (const item of history) {
        const before = step.snapshot;
        if (item.kind === 'settle') step = send(before, settle(item.payment, item.usdc));
        else if (item.kind === 'retract') step = send(before, { type: 'RETRACT_SETTLEMENT', paymentId: item.payment, at: AT });
        else {
          // One dispute per payment, as the escrow compensates an intent once; told twice when a fact is redelivered.
          const told = chargeback(item.payment, `dsp_${item.payment}`, 0n);
          (told as { claim: ChargebackClaim }).claim.compensatedUsdc = String(item.units);
          step = send(before, told);
          const known = context(before).chargebacks.some((fact) => fact.disputeId === `dsp_${item.payment}`);
          if (known) t.deepEqual(context(step.snapshot).chargebacks, context(before).chargebacks, 'a dispute told again counts once');
          t.is(step.snapshot.value, before.value, 'a chargeback never moves the status');
          if (item.twice) {
            const repeat = send(step.snapshot, told);
            t.deepEqual(context(repeat.snapshot).chargebacks, context(step.snapshot).chargebacks);
            t.deepEqual(repeat.emitted, []);
            step = { ...repeat, emitted: step.emitted };
          }
        }
        const ctx = context(step.snapshot);
        if (settledUsdc(ctx) - chargebackedUsdc(ctx) < 0n) return false;
        const status = toCheckoutOrder(ctx, step.snapshot.value as OrderStatus).chargebackStatus;
        if (status !== expectedStatus(ctx)) return false;
      }
      // Each dispute is kept once, however often it was told.
      const disputes = new Set(context(step.snapshot).chargebacks.map((fact) => fact.disputeId));
      return disputes.size === context(step.snapshot).chargebacks.length;
    }),
    { numRuns: 300 },
  );
});
