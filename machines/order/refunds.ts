/**
 * An order's refunds (docs/refunds.md). A refund is a payout to the order's customer, which
 * the merchant funds as any payout; the order holds what each refund may take out of what
 * settled against it, hears from the refund's payout how it goes, and shows the result in
 * document 1's refund fields. Pure: the order machine's guards and actions, its view and the
 * order kind's refusals all read these, so what the machine accepts and what the API refuses
 * cannot drift apart.
 *
 * A refund's state, by its payout:
 * - RESERVED: asked for; its payout is being prepared (it does not exist for the merchant yet);
 * - RELEASED: its payout failed to prepare; holds nothing until the same request comes again;
 * - PENDING: its payout awaits the merchant's funding;
 * - COMPLETED: its payout was funded: the USDC is in the customer's wallet;
 * - EXPIRED, CANCELLED: its payout ended unfunded; holds nothing, for good.
 */
import { settledUsdc } from './settlement.js';
import { formatUsdc } from '../money.js';
import type { FreeForm, OrderContext, OrderRefund, OrderStatus } from './order-types.js';

/** Document 1's CheckoutOrderRefundStatus. */
export type CheckoutOrderRefundStatus = 'NONE' | 'PENDING' | 'COMPLETED';

/** A refund as the API shows it: on the order's refunds read and as a refund webhook's data.refund. */
export interface OrderRefundView {
  payoutId: string;
  status: 'PENDING' | 'COMPLETED' | 'EXPIRED' | 'CANCELLED';
  requestedAmountUsdc: string;
  refundedAmountUsdc: string | null;
  transactionHash: string | null;
  metadata: FreeForm | null;
  createdAt: string;
  completedAt: string | null;
  endedAt: string | null;
}

export type RefundRefusal = 'INVALID_AMOUNT' | 'ORDER_NOT_REFUNDABLE' | 'REFUND_EXCEEDS_REFUNDABLE';

/** What a refund takes out of the order: what it asked while it may still be funded, what arrived once funded. */
function heldBy(refund: OrderRefund): bigint {
  if (refund.state === 'RESERVED' || refund.state === 'PENDING') return refund.requestedUsdc;
  if (refund.state === 'COMPLETED') return refund.refundedUsdc ?? 0n;
  return 0n;
}

export function refundOf(context: Pick<OrderContext, 'refunds'>, payoutId: string): OrderRefund | undefined {
  return context.refunds.find((refund) => refund.payoutId === payoutId);
}

/** What more may be refunded: what settled, less what the refunds hold; never below zero (a retraction can take back what a refund was counted against). */
export function refundableUsdc(context: Pick<OrderContext, 'settlements' | 'refunds'>): bigint {
  const left = context.refunds.reduce((rest, refund) => rest - heldBy(refund), settledUsdc(context));
  return left > 0n ? left : 0n;
}

/** Whether a request for `payoutId` makes a reservation: a refund not asked before, or one whose payout failed to prepare. */
export function reservesAnew(context: Pick<OrderContext, 'refunds'>, payoutId: string): boolean {
  const known = refundOf(context, payoutId);
  return known === undefined || known.state === 'RELEASED';
}

/**
 * Why a refund request is refused, or null. The same request again (a refund the order
 * already holds, or whose payout ended) changes nothing and is not refused: the merchant's
 * retry is answered from the payout.
 */
export function refundRefusal(
  context: Pick<OrderContext, 'settlements' | 'refunds'>,
  status: OrderStatus,
  request: { payoutId: string; amountUsdc: bigint },
): RefundRefusal | null {
  // Messages cross a transport, so the type is checked, not trusted.
  if (typeof request.amountUsdc !== 'bigint' || request.amountUsdc <= 0n) return 'INVALID_AMOUNT';
  if (!reservesAnew(context, request.payoutId)) return null;
  if (status !== 'FULFILLED') return 'ORDER_NOT_REFUNDABLE';
  if (request.amountUsdc > refundableUsdc(context)) return 'REFUND_EXCEEDS_REFUNDABLE';
  return null;
}

/** The refunds after `payoutId`'s has changed; its place in the list stays. */
export function withRefund(refunds: readonly OrderRefund[], payoutId: string, change: (refund: OrderRefund) => OrderRefund): OrderRefund[] {
  return refunds.map((refund) => (refund.payoutId === payoutId ? change(refund) : refund));
}

/** Whether the merchant sees the refund: its payout exists (a reservation, or one that failed to prepare, is not a refund yet). */
function shown(refund: OrderRefund): refund is OrderRefund & { state: OrderRefundView['status']; createdAt: string } {
  return refund.state !== 'RESERVED' && refund.state !== 'RELEASED' && refund.createdAt !== null;
}

export function refundView(refund: OrderRefund): OrderRefundView | null {
  if (!shown(refund)) return null;
  return {
    payoutId: refund.payoutId,
    status: refund.state,
    requestedAmountUsdc: formatUsdc(refund.requestedUsdc),
    refundedAmountUsdc: refund.refundedUsdc === null ? null : formatUsdc(refund.refundedUsdc),
    transactionHash: refund.transactionHash,
    metadata: refund.metadata,
    createdAt: refund.createdAt,
    completedAt: refund.completedAt,
    endedAt: refund.endedAt,
  };
}

/** The refunds the merchant sees, newest first (as an order's payments are listed); of two made at one instant, the one asked later. */
export function refundViews(refunds: readonly OrderRefund[]): OrderRefundView[] {
  return refunds
    .flatMap((refund, asked) => {
      const view = refundView(refund);
      return view ? [{ view, asked }] : [];
    })
    .sort((a, b) => (a.view.createdAt < b.view.createdAt ? 1 : a.view.createdAt > b.view.createdAt ? -1 : b.asked - a.asked))
    .map(({ view }) => view);
}

interface RefundFields {
  refundStatus: CheckoutOrderRefundStatus;
  refundAmountUsdc: string | null;
  refundDepositId: string | null;
  refundTransactionHash: string | null;
  refundMetadata: FreeForm | null;
}

/**
 * Document 1's refund fields. Refunds that count are those pending or completed: PENDING while
 * any is pending, COMPLETED once one completed and none is pending, NONE otherwise (none asked,
 * or every one ended unfunded). refundAmountUsdc totals what they refund (what arrived for a
 * completed one, what was asked for a pending one); the other fields describe the newest that counts.
 */
export function refundFields(refunds: readonly OrderRefund[]): RefundFields {
  const counting = refundViews(refunds).filter((refund) => refund.status === 'PENDING' || refund.status === 'COMPLETED');
  const current = counting[0];
  if (!current) return { refundStatus: 'NONE', refundAmountUsdc: null, refundDepositId: null, refundTransactionHash: null, refundMetadata: null };
  const total = refunds.filter((refund) => refund.state === 'PENDING' || refund.state === 'COMPLETED').reduce((sum, refund) => sum + heldBy(refund), 0n);
  return {
    refundStatus: counting.some((refund) => refund.status === 'PENDING') ? 'PENDING' : 'COMPLETED',
    refundAmountUsdc: formatUsdc(total),
    refundDepositId: current.payoutId,
    refundTransactionHash: current.transactionHash,
    refundMetadata: current.metadata,
  };
}
