/**
 * What an order knows of its payments: one summary per attempt, as each attempt
 * reports where it stands. The list fields of document 1 (hasActivePayment,
 * hasExpiredPayment, paymentSelectedRail), the hosted read's current payment and the
 * amount lock are all read from these.
 */
import { UNCANCELLABLE_STEPS, type PaymentSummary } from '../payment/payment-machine.js';

export type { PaymentSummary };

/** When an attempt was last opened: a recreate's reopening makes an older attempt the newest again. */
const openedAt = (payment: PaymentSummary) => payment.openedAt ?? payment.createdAt;

/** The summaries with `payment` in place of its earlier report, newest (last opened) attempt first. */
export function withPayment(payments: readonly PaymentSummary[], payment: PaymentSummary): PaymentSummary[] {
  const others = payments.filter((known) => known.id !== payment.id);
  return [payment, ...others].sort((a, b) => (openedAt(a) === openedAt(b) ? b.id.localeCompare(a.id) : openedAt(b).localeCompare(openedAt(a))));
}

export function activePayment(payments: readonly PaymentSummary[]): PaymentSummary | null {
  return payments.find((payment) => payment.status === 'CREATED') ?? null;
}

/** The rail of the attempt in progress, else of the most recent expired one, else null (document 1). */
export function paymentSelectedRail(payments: readonly PaymentSummary[]): string | null {
  return (activePayment(payments) ?? payments.find((payment) => payment.status === 'EXPIRED'))?.rail ?? null;
}

/**
 * Whether a newer attempt may end this one: it is open, and no proof of it is being
 * verified or fulfilled and no transfer of it converted, since cancelling could take money
 * the customer has sent. The one rule for both the order replacing an older attempt
 * (supersededBy) and a create naming the attempt it replaces.
 */
export function replaceable(payment: { status: string; step: string | null }): boolean {
  return payment.status === 'CREATED' && payment.step !== null && !UNCANCELLABLE_STEPS[payment.step];
}

/**
 * Older attempts still open that a newer one replaces: the hosted read shows the newest
 * attempt only, so an older one left open would hold liquidity nobody is paying.
 */
export function supersededBy(payments: readonly PaymentSummary[], newest: PaymentSummary): PaymentSummary[] {
  if (newest.status !== 'CREATED') return [];
  return payments.filter((payment) => payment.id !== newest.id && replaceable(payment) && olderThan(payment, newest));
}

/** The order withPayment sorts in: by last opening, then by id, so two attempts of one millisecond never each replace the other. */
function olderThan(payment: PaymentSummary, other: PaymentSummary): boolean {
  return openedAt(payment) === openedAt(other) ? payment.id.localeCompare(other.id) < 0 : openedAt(payment) < openedAt(other);
}
