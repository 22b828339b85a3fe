/**
 * The order model's inputs: a FIXED order of 100 USDC and an OPEN one, and the events
 * offered to them. Four settlements (30, 70, 100 and 10 USDC) reach a part, two parts, the
 * rest and the whole, and some pairs an overpayment; their retractions, and one of a payment
 * the order never counted, reach every branch of RETRACT_SETTLEMENT. Two attempts
 * reporting (the newer replacing the older) and one expiring reach PAYMENT_UPDATED.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { orderKind } from '../../../actors/kinds/index.js';
import { formatUsdc } from '../../../machines/money.js';
import type { OrderContext, OrderEvent, PaymentSummary } from '../../../machines/order/index.js';
import { sample, type Variant } from '../../support/model-paths.js';
import { fixedOrderInput, openOrderInput } from '../../support/order-input.js';

export const ORDER_KIND = orderKind;

const fixed = fixedOrderInput({ id: 'ord_model_fixed' });
const open = openOrderInput({ id: 'ord_model_open' });

export const ORDER_VARIANTS: Variant[] = [
  { name: 'fixed 100 USDC', id: fixed.id, create: { type: 'CREATE', ...fixed } },
  { name: 'open amount', id: open.id, create: { type: 'CREATE', ...open } },
];

const AT = '2026-11-23T12:30:00.000Z';

const settle = (label: string, paymentId: string, usdc: bigint) =>
  sample(label, { type: 'APPLY_SETTLEMENT' as const, paymentId, usdcAmount: usdc * 1_000_000n, at: AT });

const attempt = (id: string, status: PaymentSummary['status'], createdAt: string): PaymentSummary => ({
  id,
  rail: 'venmo',
  status,
  step: status === 'CREATED' ? 'AWAITING_PAYMENT' : null,
  railIdentifier: null,
  paid: false,
  createdAt,
});

const SAMPLES: OrderEvent[] = [
  settle('30 of pay_1', 'pay_1', 30n),
  settle('70 of pay_2', 'pay_2', 70n),
  settle('100 of pay_3', 'pay_3', 100n),
  settle('10 of pay_4', 'pay_4', 10n),
  ...['pay_1', 'pay_2', 'pay_3', 'pay_4', 'pay_9'].map((paymentId) => sample(paymentId, { type: 'RETRACT_SETTLEMENT' as const, paymentId, at: AT })),
  sample('pay_1 open', { type: 'PAYMENT_UPDATED', payment: attempt('pay_1', 'CREATED', '2026-11-23T12:05:00.000Z') }),
  sample('pay_2 open', { type: 'PAYMENT_UPDATED', payment: attempt('pay_2', 'CREATED', '2026-11-23T12:10:00.000Z') }),
  sample('pay_1 expired', { type: 'PAYMENT_UPDATED', payment: attempt('pay_1', 'EXPIRED', '2026-11-23T12:05:00.000Z') }),
  { type: 'CANCEL', at: AT },
];

export function orderEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const context = snapshot.context as OrderContext;
  const amount: OrderEvent = {
    type: 'SET_AMOUNT',
    usdcAmount: 20_000_000n,
    previousAmountUsdc: context.requestedUsdcAmount === null ? null : formatUsdc(context.requestedUsdcAmount),
    fiat: { amount: '18.40', currency: 'EUR' },
    at: AT,
  };
  return [...SAMPLES, amount];
}

/** What the guards read: the settled payments, the attempts' statuses, and whether an open amount is set. */
export function orderAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as OrderContext;
  return {
    value: snapshot.value,
    amount: context.requestedUsdcAmount,
    settled: context.settlements.map((settlement) => settlement.paymentId).sort(),
    payments: context.payments.map((payment) => `${payment.id}:${payment.status}`),
  };
}
