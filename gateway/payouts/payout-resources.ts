/**
 * What the payout endpoints answer (document 2): PayoutView, the same shape on every route
 * and in webhooks, CreatePayoutResponse and ListPayoutsResponse. Answers are built through
 * these schemas, so nothing undeclared (the customer's e-mail, wallet or handle, the
 * service's fee) can reach a merchant.
 */
import { z } from 'zod';
import { isoTime } from '../schemas/common.js';

export const payoutStatus = z
  .enum(['AWAITING_FUNDING', 'FUNDED', 'READY', 'LISTING', 'PAYING', 'SETTLED', 'CANCELLED', 'EXPIRED'])
  .meta({ id: 'PayoutStatus' });
export const payoutFundingStatus = z.enum(['AWAITING_FUNDING', 'PARTIALLY_FUNDED', 'FUNDED', 'FUNDING_EXPIRED']).meta({ id: 'PayoutFundingStatus' });

const decimalUsdc = z.string().meta({ description: 'Decimal USDC, at least two decimals', example: '104.123712' });

export const payoutView = z
  .strictObject({
    payoutId: z.string(),
    merchantReference: z.string().nullable(),
    status: payoutStatus,
    fundingStatus: payoutFundingStatus,
    payoutCurrency: z.string().nullable().meta({ description: 'The saved fiat currency; null for crypto or no method yet' }),
    payout: z.strictObject({ amount: decimalUsdc, chainId: z.number().int(), tokenAddress: z.string(), decimals: z.number().int() }),
    merchantFee: z.strictObject({ bps: z.number().int(), amount: decimalUsdc }),
    funding: z.strictObject({
      chainId: z.number().int(),
      tokenAddress: z.string(),
      decimals: z.number().int(),
      amount: z.string().meta({ description: 'What to send, in the funding token; fund exactly this' }),
      sentAmount: z.string().meta({ description: 'Sent before the deadline, in the funding token' }),
      missingAmount: z.string().meta({ description: 'amount minus sentAmount, never below 0' }),
      expectedAmount: decimalUsdc,
      receivedAmount: decimalUsdc,
      depositAddress: z
        .string()
        .nullable()
        .meta({ description: 'Null once the deadline passes or the payout is funded, cancelled or expired: never send then' }),
      quoteExpiresAt: isoTime,
    }),
    depositAmount: decimalUsdc.nullable(),
    paidAmount: decimalUsdc,
    partialFills: z.array(
      z.strictObject({
        fiat: z.strictObject({ currency: z.string(), amount: z.string() }).nullable(),
        amount: decimalUsdc,
        txHash: z.string(),
        paidAt: isoTime,
      }),
    ),
    settlement: z.null().meta({ description: 'Only when SETTLED (the customer’s side of payouts fills it)' }),
    attempt: z.null().meta({ description: 'The latest listing or crypto payout attempt; null until the customer confirms a method' }),
    payoutTransfer: z.null().meta({ description: 'Only when SETTLED with a sent amount' }),
    cancelSource: z.enum(['MERCHANT', 'PEER_APP']).nullable(),
    returnUrl: z.string().nullable(),
    expiresAt: isoTime,
    fundedAt: isoTime.nullable(),
    settledAt: isoTime.nullable(),
    cancelledAt: isoTime.nullable(),
    createdAt: isoTime,
  })
  .meta({ id: 'PayoutView' });

export const createPayoutResponse = payoutView
  .extend({
    checkoutUrl: z.string().meta({ description: 'The customer’s link; a replay answers the current one' }),
    idempotentReplay: z.boolean(),
  })
  .meta({ id: 'CreatePayoutResponse' });

export const listPayoutsResponse = z
  .strictObject({
    items: z.array(payoutView),
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int(),
  })
  .meta({ id: 'ListPayoutsResponse' });
