/**
 * A settled payment's chargeback (docs/chargebacks.md): a fiat payment reversed on its rail after it
 * settled, which the maker's stake compensated and the escrow recorded on chain. The indexer's
 * ChargebackCompensated fact reaches the payment (it is filed under the intent), the payment tells
 * its order, and the order, which knows its refunds, answers with the whole fact (refundOverlap
 * read from them); the payment then carries it as `chargeback` and announces PAYMENT_CHARGEBACKED.
 * The payment's status never changes: it stays SETTLED.
 *
 * The escrow compensates an intent once, so a payment has at most one chargeback; the same fact
 * delivered again (its id, or the same dispute under another id after a reorganisation) counts once.
 */
import { sameHex } from '../id-hash.js';
import type { ChargebackClaim, ChargebackCompensatedFact } from './chargeback-types.js';
import type { PaymentContext, PaymentEvent } from './payment-types.js';

/** The chain's record of a chargeback on this payment's intent, standing (not a retraction). */
function chargebackFactOf(context: PaymentContext, event: PaymentEvent): ChargebackCompensatedFact | null {
  if (event.type !== 'CHAIN_FACT' || event.fact.retracted) return null;
  const record = event.fact.chargebackCompensated;
  return record && sameHex(record.intentHash, context.railIdentifier) ? record : null;
}

/** A chargeback the payment has not taken yet. */
export function newChargeback(context: PaymentContext, event: PaymentEvent): boolean {
  return chargebackFactOf(context, event) !== null && (context.chargebackClaim ?? null) === null;
}

/** The same chargeback again (a redelivery, or the same dispute re-included after a reorganisation): taken, changing nothing. */
export function repeatedChargeback(context: PaymentContext, event: PaymentEvent): boolean {
  const record = chargebackFactOf(context, event);
  return record !== null && context.chargebackClaim?.disputeId === record.disputeId;
}

export function claimOf(context: PaymentContext, event: PaymentEvent): ChargebackClaim {
  const record = chargebackFactOf(context, event);
  if (!record || event.type !== 'CHAIN_FACT') throw new Error('not a chargeback of this payment');
  return {
    paymentId: context.id,
    intentHash: record.intentHash,
    disputeId: record.disputeId,
    compensatedUsdc: record.compensatedAmount,
    disputedAt: event.fact.blockTimestamp ? new Date(Number(event.fact.blockTimestamp) * 1000).toISOString() : context.updatedAt,
    disputeTxHash: event.fact.transactionHash ?? '',
    factId: event.fact.id,
  };
}

/** The order's answer about the chargeback the payment told it, the first time. */
export function recordsChargeback(context: PaymentContext, event: PaymentEvent): boolean {
  return (
    event.type === 'CHARGEBACK_RECORDED' &&
    (context.chargeback ?? null) === null &&
    context.chargebackClaim?.disputeId === event.chargeback.disputeId &&
    event.chargeback.paymentId === context.id
  );
}

/** The order's answer again: taken, changing nothing. */
export function repeatedRecord(context: PaymentContext, event: PaymentEvent): boolean {
  return event.type === 'CHARGEBACK_RECORDED' && context.chargeback?.disputeId === event.chargeback.disputeId;
}
