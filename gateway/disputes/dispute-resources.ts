/**
 * What the dispute endpoints answer (docs/disputes.md): document 1's dispute payload (the
 * `data` of DISPUTE_* webhooks) and the merchant's read view of a dispute, which adds the
 * merchant read fields to it, one by one and as a page.
 */
import { z } from 'zod';
import { isoTime, pageFields } from '../schemas/common.js';

export const disputeStatus = z
  .enum(['OPEN', 'PAID', 'ESCALATED'])
  .meta({ description: 'OPEN until the merchant pays the seller (PAID) or dueAt passes unpaid (ESCALATED)' });

const payloadFields = {
  disputeId: z.string().meta({ description: 'The payment platform’s case id' }),
  orderId: z.string().meta({ description: 'The order the disputed payment paid' }),
  paymentId: z.string().meta({ description: 'The disputed payment attempt' }),
  intentHash: z.string().meta({ description: 'The disputed payment’s intent on chain' }),
  amountUsdc: z.string().meta({ description: 'What the merchant pays the seller: raw 6-decimal USDC units (12500000 is 12.5 USDC)', example: '25000000' }),
  caseAmount: z.string().meta({ description: 'The disputed fiat amount, 2 decimals', example: '25.34' }),
  caseCurrency: z.string().meta({ description: 'The currency of caseAmount', example: 'USD' }),
  sellerAddress: z.string().meta({ description: 'The maker’s deposit owner on Base, whom the merchant pays' }),
  status: disputeStatus,
  dueAt: isoTime.meta({ description: 'When the dispute escalates if still unpaid' }),
  paidTxHash: z.string().nullable().meta({ description: 'The Base transaction that paid the seller, once the chain showed it; null until PAID' }),
};

export const disputePayload = z
  .strictObject(payloadFields)
  .meta({ id: 'DisputePayload', description: 'Document 1’s dispute payload: data of DISPUTE_* webhooks' });

export const merchantDispute = z
  .strictObject({
    id: z.string().meta({ description: 'The dispute’s id here: dsp_ and 24 hex digits' }),
    merchantId: z.string().meta({ description: 'The merchant account (live or sandbox) it belongs to' }),
    rail: z.string().meta({ description: 'The disputed payment’s rail' }),
    platform: z.string().meta({ description: 'The platform whose e-mail reported it (venmo, paypal), or sandbox' }),
    stakeStatusAtOpen: z.enum(['PROTECTED', 'UNPROTECTED']).meta({
      description:
        'Whether the maker’s deposit had dispute protection when the dispute opened: an escalated PROTECTED dispute is claimed from the maker’s stake',
    }),
    fulfillTxHash: z.string().nullable().meta({ description: 'The transaction that released the intent; null for a sandbox payment' }),
    stakeClaimTxHash: z.string().nullable().meta({ description: 'The stake compensation’s transaction, once claimed; null otherwise' }),
    openedAt: isoTime.meta({ description: 'When it was opened' }),
    paidAt: isoTime.nullable().meta({ description: 'When the merchant’s payment was recorded' }),
    escalatedAt: isoTime.nullable().meta({ description: 'When it escalated: its dueAt' }),
    updatedAt: isoTime.meta({ description: 'When it last changed' }),
    orderRefunded: z.boolean().meta({ description: 'Whether the order’s refundStatus is COMPLETED now' }),
    activeAttempt: z.string().nullable().meta({ description: 'The order’s attempt in progress now (a payment id), if any' }),
    ...payloadFields,
  })
  .meta({ id: 'MerchantDispute', description: 'A dispute as its merchant reads it: document 1’s dispute payload and the merchant read fields' });

export const merchantDisputeList = z
  .strictObject({ disputes: z.array(merchantDispute).meta({ description: 'The page, newest first' }), ...pageFields('disputes') })
  .meta({ id: 'MerchantDisputeList' });
