/**
 * A refund's payout tells its order how it goes (docs/refunds.md): created, not created,
 * funded, expired, cancelled unfunded. Each news is a `tell`, saved in the payout's outbox in
 * the write of the turn that made it, so it reaches the order at least once and in the order
 * the payout made them; the order counts each once. A payout that refunds nothing tells no one.
 */
import { enqueueActions } from 'xstate';
import type { PayoutContext, PayoutEvent } from './payout-types.js';

/** The runtime's built-in effect that delivers an event to another actor, as the payout machine declares it. */
export type TellAction = { type: 'tell'; params: { to: { kind: string; id: string }; event: Record<string, unknown> } };

type RefundNews = 'CREATED' | 'NOT_CREATED' | 'FUNDED' | 'EXPIRED' | 'CANCELLED';

/** The Base transaction of the last delivery the funding counted: what put the refund in the customer's wallet. */
function fundingTransaction(context: Pick<PayoutContext, 'transfers' | 'countedTransferIds'>): string | null {
  const counted = new Set(context.countedTransferIds);
  return context.transfers.filter((transfer) => counted.has(transfer.id) && transfer.deliveryTransactionHash !== null).at(-1)?.deliveryTransactionHash ?? null;
}

/** The order's event for `news`, from the payout as the turn leaves it. */
function refundNewsEvent(context: PayoutContext, news: RefundNews): Record<string, unknown> {
  const payoutId = context.id;
  switch (news) {
    case 'FUNDED':
      return {
        type: 'REFUND_PAYOUT_FUNDED',
        payoutId,
        refundedUsdc: context.depositAmount ?? 0n,
        transactionHash: fundingTransaction(context),
        at: context.fundedAt ?? context.updatedAt,
      };
    case 'CANCELLED':
      return { type: 'REFUND_PAYOUT_CANCELLED', payoutId, at: context.cancelledAt ?? context.updatedAt };
    default:
      return { type: `REFUND_PAYOUT_${news}`, payoutId, at: context.updatedAt };
  }
}

/** Tells the refunded order `news`; nothing for a payout that is no refund. Put it after the actions that record what it reports. */
export function tellRefundOrder(news: RefundNews) {
  return enqueueActions<PayoutContext, PayoutEvent, undefined, PayoutEvent, never, TellAction, never, never, never>(({ context, enqueue }) => {
    const order = context.refundOf?.orderId;
    if (order) enqueue({ type: 'tell', params: { to: { kind: 'order', id: order }, event: refundNewsEvent(context, news) } });
  });
}
