/**
 * An order's chargebacks (docs/chargebacks.md): facts beside the status, never moving it. Each
 * payment charged back tells its order the chain's record; the order completes it into document 1's
 * PaymentChargebackFact (refundOverlap read from its refunds, bridgeOrSweepOverlap from its bridges), keeps it, answers the payment with it
 * and announces what the order's chargebackStatus now is.
 *
 * chargebackStatus, by amount: what the chargebacks took back, each counted up to what its payment
 * settled against the order (so settled − chargebacked is never below zero), compared with all that
 * settled: NONE while nothing is counted, CHARGEBACKED once the count reaches what settled,
 * PARTIALLY_CHARGEBACKED between. A later settlement (another payment) can move a CHARGEBACKED order
 * back to PARTIALLY_CHARGEBACKED: the order then announces it with the settling payment as trigger.
 *
 * Pure: the order machine's guards and actions and the order's view read these.
 */
import { settledUsdc } from './settlement.js';
import { bridgeOverlapOf } from './order-bridges.js';
import { formatUsdc, parseUsdc } from '../money.js';
import type { ChargebackClaim, ChargebackRefundOverlap, PaymentChargebackFact } from '../payment/chargeback-types.js';
import type { OrderChargebackStatus, OrderContext, OrderRefund } from './order-types.js';

export type { OrderChargebackStatus };

export type ChargebackTrigger = { type: 'CHARGEBACK_APPLIED'; chargeback: PaymentChargebackFact } | { type: 'PAYMENT_SETTLED'; paymentId: string };

type Chargebacks = Pick<OrderContext, 'settlements' | 'chargebacks'>;

/** What the order's settlements counted for one payment. */
const settledFor = (context: Pick<OrderContext, 'settlements'>, paymentId: string) =>
  settledUsdc({ settlements: context.settlements.filter((settlement) => settlement.paymentId === paymentId) });

/** What the chargebacks took back, each up to what its payment settled against the order. */
export function chargebackedUsdc(context: Chargebacks): bigint {
  return (context.chargebacks ?? []).reduce((sum, chargeback) => {
    const compensated = parseUsdc(chargeback.compensatedUsdcAmount);
    const settled = settledFor(context, chargeback.paymentId);
    return sum + (compensated < settled ? compensated : settled);
  }, 0n);
}

export function orderChargebackStatus(context: Chargebacks): OrderChargebackStatus {
  const chargebacked = chargebackedUsdc(context);
  if (chargebacked === 0n) return 'NONE';
  return chargebacked >= settledUsdc(context) ? 'CHARGEBACKED' : 'PARTIALLY_CHARGEBACKED';
}

/** The chargeback event of a status; none for NONE. */
export function chargebackEventOf(status: OrderChargebackStatus): 'ORDER_PARTIALLY_CHARGEBACKED' | 'ORDER_CHARGEBACKED' | null {
  return status === 'NONE' ? null : `ORDER_${status}`;
}

/** The dispute's chargeback, when the order holds it. */
export function chargebackOf(context: Pick<OrderContext, 'chargebacks'>, disputeId: string): PaymentChargebackFact | undefined {
  return (context.chargebacks ?? []).find((chargeback) => chargeback.disputeId === disputeId);
}

/** How far the order's refunds had gone when the chargeback arrived: the furthest one decides. */
export function refundOverlapOf(refunds: readonly OrderRefund[]): ChargebackRefundOverlap {
  const states = new Set(refunds.map((refund) => refund.state));
  if (states.has('COMPLETED')) return 'ALREADY_REFUNDED';
  if (states.has('PENDING')) return 'ALREADY_SUBMITTED';
  if (states.has('RESERVED')) return 'SUBMITTING_OR_UNKNOWN';
  if (states.has('RELEASED')) return 'PENDING_HALTED';
  return 'NONE';
}

/** The fact the order keeps and the payment carries, with the payment's bridge as it last told the order (order-bridges.ts). */
export function chargebackFactOf(context: Pick<OrderContext, 'refunds' | 'bridges'>, claim: ChargebackClaim): PaymentChargebackFact {
  return {
    paymentId: claim.paymentId,
    intentHash: claim.intentHash,
    disputeId: claim.disputeId,
    status: 'CHARGEBACKED',
    compensatedUsdcAmount: formatUsdc(BigInt(claim.compensatedUsdc)),
    disputedAt: claim.disputedAt,
    disputeTxHash: claim.disputeTxHash,
    refundOverlap: refundOverlapOf(context.refunds),
    bridgeOrSweepOverlap: bridgeOverlapOf(context, claim.paymentId),
  };
}

/** Why the order does not take a claim, or null (messages cross a transport, so the shape is checked). */
export function chargebackRefusal(claim: unknown): string | null {
  const c = claim as Partial<ChargebackClaim> | null;
  if (!c || typeof c.paymentId !== 'string' || typeof c.disputeId !== 'string' || typeof c.compensatedUsdc !== 'string') return 'INVALID_CHARGEBACK';
  if (!/^[0-9]+$/.test(c.compensatedUsdc) || BigInt(c.compensatedUsdc) <= 0n) return 'INVALID_CHARGEBACK';
  return null;
}
