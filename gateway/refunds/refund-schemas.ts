/**
 * What the refund create takes (docs/refunds.md): the payout create's fields that a refund
 * keeps (the customer's e-mail, how the merchant funds it, its rails, reference and return
 * address, held to the same rules), the amount refunded in place of the payout's, and the
 * merchant's own metadata. Validated here and documented from the same schema; a body failing
 * it is the validation 400, refused before the Idempotency-Key is looked at.
 */
import { z } from 'zod';
import { createPayoutBody } from '../payouts/payout-schemas.js';
import { freeFormObject } from '../schemas/free-form.js';

export const createRefundBody = createPayoutBody
  .omit({ payout: true })
  .extend({
    amount: z
      .string()
      .regex(/^\d{1,12}(?:\.\d{1,6})?$/, 'must be a decimal USDC amount with at most 6 decimals')
      .refine((amount) => /[1-9]/.test(amount), 'must be above zero')
      .meta({ description: 'USDC to refund, a decimal with at most 6 decimals, above zero: what the customer is paid out', example: '37.5' }),
    metadata: freeFormObject
      .nullable()
      .optional()
      .meta({ description: 'Your own JSON object about the refund (a reason, a ticket); the order’s refundMetadata while it is the current refund' }),
  })
  .meta({
    id: 'CreateRefundRequest',
    example: {
      amount: '37.5',
      customerEmail: 'ana@example.com',
      funding: { chainId: 8453, tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
      metadata: { reason: 'damaged item' },
    },
  });

export type CreateRefundBody = z.output<typeof createRefundBody>;
