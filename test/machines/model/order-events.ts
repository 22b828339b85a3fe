/**
 * The order model's inputs: a FIXED order of 100 USDC and an OPEN one, and the events
 * offered to them. Four settlements (30, 70, 100 and 10 USDC) reach a part, two parts, the
 * rest and the whole, and some pairs an overpayment; their retractions, and one of a payment
 * the order never counted, reach every branch of RETRACT_SETTLEMENT. Two attempts
 * reporting (the newer replacing the older) and one expiring reach PAYMENT_UPDATED. One
 * refund of 40 USDC and every news its payout can tell reach the refunds (docs/refunds.md):
 * its payout created, not created (then asked again), funded, expired, cancelled. Two
 * chargebacks (docs/chargebacks.md), all of pay_1's 30 and 40 of pay_3's 100, reach NONE, PARTIALLY_CHARGEBACKED and CHARGEBACKED, and with the
 * settlements after them the announcements a later settlement makes. pay_1's bridge telling
 * SUBMITTED, then COMPLETED a minute later (docs/bridges.md), offered before any chargeback, gives
 * a chargeback of pay_1 a bridge to name; told in either order, the newer news stands.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { orderKind } from '../../../actors/kinds/index.js';
import type { OrderContext, OrderEvent, PaymentSummary, RefundPayoutCreation } from '../../../machines/order/index.js';
import { sample, type Variant } from '../../support/model-paths.js';
import { fixedOrderInput, openOrderInput } from '../../support/order-input.js';

export const ORDER_KIND = orderKind;

// Dynamic orders on, so the walk meets resizes too.
const fixed = fixedOrderInput({ id: 'ord_model_fixed', dynamicOrdersEnabled: true });
const open = openOrderInput({ id: 'ord_model_open' });

export const ORDER_VARIANTS: Variant[] = [
  { name: 'fixed 100 USDC', id: fixed.id, create: { type: 'CREATE', ...fixed } },
  { name: 'open amount', id: open.id, create: { type: 'CREATE', ...open } },
];

const AT = '2026-11-23T12:30:00.000Z';

const settle = (label: string, paymentId: string, usdc: bigint) =>
  sample(label, { type: 'APPLY_SETTLEMENT' as const, paymentId, usdcAmount: usdc * 1_000_000n, at: AT });

const REFUND_PAYOUT = 'po_model_refund';

const chargeback = (label: string, paymentId: string, disputeId: string, usdc: bigint) =>
  sample(label, {
    type: 'APPLY_CHARGEBACK' as const,
    claim: {
      paymentId,
      intentHash: `0x${'cb'.repeat(32)}`,
      disputeId,
      compensatedUsdc: String(usdc * 1_000_000n),
      disputedAt: AT,
      disputeTxHash: `0x${'dd'.repeat(32)}`,
      factId: `fact_${disputeId}`,
    },
  });

const bridged = (status: 'SUBMITTED' | 'COMPLETED', at: string) =>
  sample(`pay_1 bridge ${status.toLowerCase()}`, { type: 'BRIDGE_UPDATED' as const, paymentId: 'pay_1', paymentBridgeId: 'brg_pay_1', status, at });

const BRIDGE_SAMPLES: OrderEvent[] = [bridged('SUBMITTED', AT), bridged('COMPLETED', '2026-11-23T12:31:00.000Z')];

const CHARGEBACK_SAMPLES: OrderEvent[] = [chargeback('all 30 of pay_1', 'pay_1', 'dsp_1', 30n), chargeback('40 of pay_3', 'pay_3', 'dsp_3', 40n)];

/** The refund's payout creation: the stand-in transport takes the order's tell, so only its shape matters here. */
const refundPayout = { type: 'CREATE', id: REFUND_PAYOUT, refundOf: { orderId: fixed.id } } as unknown as RefundPayoutCreation;

const news = (type: Exclude<OrderEvent['type'], 'REFUND'> & `REFUND_PAYOUT_${string}`, extra: Record<string, unknown> = {}) =>
  sample(type.replace('REFUND_PAYOUT_', 'refund ').toLowerCase(), { type, payoutId: REFUND_PAYOUT, at: AT, ...extra } as OrderEvent);

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
  { type: 'CANCEL', at: AT },
  // One key: once taken, the same resize again is acknowledged and changes nothing.
  sample('resized to 40', { type: 'RESIZE' as const, usdcAmount: 40_000_000n, idempotencyKey: 'resize-model-1', at: AT }),
];

const PAYMENT_SAMPLES: OrderEvent[] = [
  sample('pay_1 open', { type: 'PAYMENT_UPDATED', payment: attempt('pay_1', 'CREATED', '2026-11-23T12:05:00.000Z') }),
  sample('pay_2 open', { type: 'PAYMENT_UPDATED', payment: attempt('pay_2', 'CREATED', '2026-11-23T12:10:00.000Z') }),
  sample('pay_1 expired', { type: 'PAYMENT_UPDATED', payment: attempt('pay_1', 'EXPIRED', '2026-11-23T12:05:00.000Z') }),
];

/**
 * Refunds read the settlements and never the attempts, and attempts never the refunds: each
 * is offered only while the other is absent, so the walk meets both without their product.
 */
const REFUND_SAMPLES: OrderEvent[] = [
  sample('40 refunded', { type: 'REFUND', payoutId: REFUND_PAYOUT, amountUsdc: 40_000_000n, metadata: { reason: 'model' }, payout: refundPayout, at: AT }),
  news('REFUND_PAYOUT_CREATED'),
  news('REFUND_PAYOUT_NOT_CREATED'),
  news('REFUND_PAYOUT_FUNDED', { refundedUsdc: 40_000_000n, transactionHash: `0x${'ab'.repeat(32)}` }),
  news('REFUND_PAYOUT_EXPIRED'),
  news('REFUND_PAYOUT_CANCELLED'),
];

export function orderEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const context = snapshot.context as OrderContext;
  const amount: OrderEvent = {
    type: 'SET_AMOUNT',
    usdcAmount: 20_000_000n,
    fiat: { amount: '18.40', currency: 'EUR' },
    amountVersion: context.amountVersion,
    at: AT,
  };
  // Chargebacks read the settlements and the refunds, never the attempts: offered while neither refunds nor attempts are there.
  const quiet = context.refunds.length === 0 && context.payments.length === 0;
  // A save from a page that saw an older version: refused (AMOUNT_CONFLICT) wherever it arrives.
  const stale: OrderEvent = { ...amount, amountVersion: context.amountVersion + 1 };
  return [
    ...SAMPLES,
    ...((context.chargebacks ?? []).length === 0 && context.refunds.length === 0 ? PAYMENT_SAMPLES : []),
    ...((context.chargebacks ?? []).length === 0 && context.payments.length === 0 ? REFUND_SAMPLES : []),
    ...(quiet ? CHARGEBACK_SAMPLES : []),
    ...(quiet && (context.chargebacks ?? []).length === 0 ? BRIDGE_SAMPLES : []),
    amount,
    stale,
  ];
}

/** What the guards read: the settled payments, the attempts' statuses, whether an open amount is set, where the refund stands, and what the chargebacks name. */
export function orderAbstraction(snapshot: AnyMachineSnapshot): unknown {
  const context = snapshot.context as OrderContext;
  return {
    value: snapshot.value,
    amount: context.requestedUsdcAmount,
    settled: context.settlements.map((settlement) => settlement.paymentId).sort(),
    payments: context.payments.map((payment) => `${payment.id}:${payment.status}`),
    refunds: context.refunds.map((refund) => `${refund.payoutId}:${refund.state}`),
    chargebacks: (context.chargebacks ?? []).map((chargeback) => chargeback.disputeId).sort(),
    announced: context.chargebackStatus,
    bridges: (context.bridges ?? []).map((bridge) => `${bridge.paymentId}:${bridge.status}`),
  };
}
