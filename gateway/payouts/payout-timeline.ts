/**
 * A payout's history for its merchant (docs/payouts.md; issue 40's dashboard): the timeline the
 * payout actor keeps, oldest first, and its funding issues (an overpayment, late funds, a route
 * refund), which are never counted toward the payout. The timeline's words are the customer's
 * checkout's, but for the customer's own address, which the merchant is not shown.
 */
import { z } from 'zod';
import type { PayoutKindView } from '../../actors/kinds/payout-kind.js';
import { isoTime } from '../schemas/common.js';

export const payoutTimeline = z
  .object({
    payoutId: z.string().meta({ description: 'The payout' }),
    timeline: z
      .array(
        z.object({
          type: z.string().meta({ description: 'CREATED, PARTIALLY_FUNDED, FUNDED, FUNDING_EXPIRED, SIGNED_IN, …, FUNDING_ISSUE, SETTLED, CANCELLED' }),
          text: z.string().meta({ description: 'What happened, in words' }),
          txHash: z.string().nullable().meta({ description: 'The transaction it happened in, when one did' }),
          txChainId: z.number().int().nullable().meta({ description: 'The chain of that transaction' }),
          occurredAt: isoTime,
        }),
      )
      .meta({ description: 'What happened to the payout, oldest first' }),
    fundingIssues: z
      .array(
        z.object({
          kind: z
            .enum(['OVERPAYMENT', 'LATE_FUNDS', 'ROUTE_REFUND'])
            .meta({ description: 'More than was owed, funds after the payout closed, or a route that refunded' }),
          transferId: z
            .string()
            .nullable()
            .meta({ description: 'The funding transfer it is about; null for an overpayment, which is about the funding as a whole' }),
          amount: z.string().meta({ description: 'Decimal, in unit' }),
          unit: z.string().meta({ description: 'USDC; a route refund is in the funding token' }),
          txHash: z.string().nullable().meta({ description: 'The transaction that brought or returned the money' }),
          occurredAt: isoTime,
        }),
      )
      .meta({ description: 'Money that reached the payout and was not counted toward it, oldest first' }),
  })
  .meta({ id: 'PayoutTimeline', description: 'A payout’s timeline and funding issues' });

export function timelineOf(id: string, view: PayoutKindView): z.input<typeof payoutTimeline> {
  return {
    payoutId: id,
    timeline: view.timeline.map((entry) => ({
      type: entry.type,
      // The customer's destination address is theirs, not the merchant's.
      text: entry.type === 'TRANSFER_SENT' ? entry.text.replace(/ sent to .*$/, ' sent to the customer’s address') : entry.text,
      txHash: entry.txHash || null,
      txChainId: entry.txChainId,
      occurredAt: entry.occurredAt,
    })),
    fundingIssues: view.fundingIssues,
  };
}
