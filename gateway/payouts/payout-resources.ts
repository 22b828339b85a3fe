/**
 * What the payout endpoints answer (document 2): PayoutView, the same shape on every route
 * and in webhooks, CreatePayoutResponse and ListPayoutsResponse. Answers are built through
 * these schemas, so nothing undeclared (the customer's e-mail, wallet or handle, the
 * service's fee) can reach a merchant.
 */
import { z } from 'zod';
import { isoTime, totalCapped } from '../schemas/common.js';

export const payoutStatus = z
  .enum(['AWAITING_FUNDING', 'FUNDED', 'READY', 'LISTING', 'PAYING', 'SETTLED', 'CANCELLED', 'EXPIRED'])
  .meta({ id: 'PayoutStatus' });
export const payoutFundingStatus = z.enum(['AWAITING_FUNDING', 'PARTIALLY_FUNDED', 'FUNDED', 'FUNDING_EXPIRED']).meta({ id: 'PayoutFundingStatus' });

const decimalUsdc = z.string().meta({ description: 'Decimal USDC, at least two decimals', example: '104.123712' });
const fiatValue = z
  .strictObject({ currency: z.string().meta({ description: 'PayoutCurrency' }), amount: z.string().meta({ description: 'Two-decimal fiat' }) })
  .meta({ id: 'PayoutFiatValue' });

export const payoutView = z
  .strictObject({
    payoutId: z.string().meta({ description: 'The payout’s id' }),
    merchantReference: z.string().nullable().meta({ description: 'Your own reference, as sent' }),
    status: payoutStatus.meta({ description: 'Where the payout stands (document 2, States)' }),
    fundingStatus: payoutFundingStatus.meta({ description: 'Where its funding stands (document 2, Funding behaviour)' }),
    payoutCurrency: z.string().nullable().meta({ description: 'The saved fiat currency; null for crypto or no method yet' }),
    payout: z
      .strictObject({
        amount: decimalUsdc,
        chainId: z.number().int().meta({ description: 'Always 8453 (Base)' }),
        tokenAddress: z.string().meta({ description: 'USDC on Base' }),
        decimals: z.number().int().meta({ description: 'Always 6' }),
      })
      .meta({ description: 'What the customer is paid' }),
    merchantFee: z
      .strictObject({ bps: z.number().int().meta({ description: 'Your fee in basis points of the amount funded' }), amount: decimalUsdc })
      .meta({ description: 'Your fee, estimated at quote time from the quoted deposit, rounded down' }),
    funding: z
      .strictObject({
        chainId: z.number().int().meta({ description: 'The funding chain' }),
        tokenAddress: z.string().meta({ description: 'The funding token' }),
        decimals: z.number().int().meta({ description: 'The funding token’s decimals' }),
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
      })
      .meta({ description: 'How to fund it and what arrived' }),
    depositAmount: decimalUsdc.nullable().meta({ description: 'USDC the payout pays out, set when funded' }),
    paidAmount: decimalUsdc,
    partialFills: z
      .array(
        z.strictObject({
          fiat: fiatValue.nullable().meta({ description: 'Exact bound-rate fiat, null when unknown' }),
          amount: decimalUsdc,
          txHash: z.string().meta({ description: 'The payment on Base, lower-case' }),
          paidAt: isoTime,
        }),
      )
      .meta({ description: 'One entry per buyer payment that paid only part of the listing, oldest first' }),
    settlement: z
      .strictObject({
        buyerPaidAmount: decimalUsdc.meta({ description: 'Paid by buyers through the escrow across every listing' }),
        buyerPaidFiat: z
          .array(fiatValue)
          .nullable()
          .meta({ description: 'One total per currency in first-paid order; null if any payment’s fiat is unknown; empty if no buyer paid' }),
        sentAmount: decimalUsdc.meta({ description: 'USDC sent for a crypto payout or remainder' }),
        sentTo: z.string().nullable().meta({ description: 'The customer’s recipient; null when nothing was sent' }),
        returnedAmount: decimalUsdc.meta({ description: 'Left in, or returned to, the customer’s wallet' }),
        dustAmount: decimalUsdc.meta({ description: 'Swept by the escrow as dust when it closed the deposit' }),
        refundFeeAmount: decimalUsdc.meta({ description: 'USDC retained on bridge refunds' }),
      })
      .nullable()
      .meta({ id: 'PayoutSettlementBreakdown', description: 'Only when SETTLED' }),
    attempt: z
      .strictObject({
        kind: z.enum(['ESCROW', 'CRYPTO']).meta({ description: 'ESCROW: a buyer-paid listing; CRYPTO: a crypto payout' }),
        rail: z.string().nullable().meta({ description: 'The attempt’s rail (for CRYPTO, its network)' }),
        status: z.enum(['ACTIVE', 'CLOSED', 'SETTLED', 'FAILED']).meta({ description: 'Where the attempt stands' }),
      })
      .nullable()
      .meta({ description: 'The latest listing or crypto payout attempt; null until the customer confirms a method' }),
    payoutTransfer: z
      .strictObject({
        chainId: z.number().int().meta({ description: 'Where it was delivered (8453 for USDC on Base)' }),
        tokenAddress: z.string().meta({ description: 'The token delivered' }),
        decimals: z.number().int().meta({ description: 'Its decimals' }),
        address: z.string().meta({ description: 'The customer’s recipient, canonical (EVM checksummed); never a deposit address' }),
        amount: z.string().meta({ description: 'Delivered, in the destination token' }),
        txHash: z.string().meta({ description: 'The delivering transaction on chainId' }),
        usdcTxHash: z.string().meta({ description: 'The payout’s USDC transfer on Base; equal to txHash for USDC on Base' }),
        provider: z.enum(['ROUTEA', 'ROUTEB']).nullable().meta({ description: 'The bridge, or null for USDC on Base sent directly' }),
      })
      .nullable()
      .meta({ description: 'Only when SETTLED with a sent amount' }),
    cancelSource: z.enum(['MERCHANT', 'PEER_APP']).nullable().meta({ description: 'Who cancelled: you before funding, or the customer in the wallet app' }),
    returnUrl: z.string().nullable().meta({ description: 'Where the checkout sends the customer back' }),
    expiresAt: isoTime,
    fundedAt: isoTime.nullable().meta({ description: 'When it became FUNDED' }),
    settledAt: isoTime.nullable().meta({ description: 'When it became SETTLED' }),
    cancelledAt: isoTime.nullable().meta({ description: 'When it was cancelled' }),
    createdAt: isoTime,
  })
  .meta({ id: 'PayoutView' });

export const createPayoutResponse = payoutView
  .extend({
    checkoutUrl: z.string().meta({ description: 'The customer’s link; a replay answers the current one' }),
    idempotentReplay: z.boolean().meta({ description: 'true when this answers a replay of the Idempotency-Key' }),
  })
  .meta({ id: 'CreatePayoutResponse' });

export const listPayoutsResponse = z
  .strictObject({
    items: z.array(payoutView).meta({ description: 'This page of payouts, newest first' }),
    page: z.number().int().meta({ description: 'This page’s number, from 1' }),
    limit: z.number().int().meta({ description: 'Items per page' }),
    total: z.number().int().meta({ description: 'How many payouts match, on every page; at most 10,000 (see totalCapped)' }),
    totalCapped: totalCapped('payouts'),
  })
  .meta({ id: 'ListPayoutsResponse' });
