/**
 * The resources the payment endpoints answer: CheckoutPayment (document 1, its quote in
 * the public CheckoutPaymentQuote shape of Peer's shared types), the merchant's payment
 * lists, the customer's quotes (pay-shared's CheckoutQuotes, each entry with what the
 * customer needs to choose) and the merchant's quote availability.
 */
import { z } from 'zod';
import { paymentCurrency } from './common.js';

const nullableString = z.string().nullable();

export const paymentStatus = z.enum(['CREATED', 'SETTLED', 'CANCELLED', 'EXPIRED', 'FAILED']);

const paymentPenalty = z
  .object({
    kind: z.enum(['PURCHASE_PROTECTION', 'CROSS_CURRENCY']),
    penaltyBps: z.number().int(),
    originalAmount: z.string(),
    attestedAmount: z.string(),
  })
  .meta({ id: 'PaymentPenalty' });

const checkoutPaymentQuote = z
  .object({
    conversionRate: z.string().meta({ description: 'Fiat per USDC, 18 decimals, as the intent carries it' }),
    signalIntent: z.object({
      processorName: z.string(),
      depositId: z.string(),
      amount: z.string().meta({ description: 'USDC base units the intent locks' }),
      toAddress: z.string(),
      escrowAddress: z.string(),
      fiatCurrencyCode: z.string(),
      payeeDetails: z.string().meta({ description: 'keccak256 of the recipient id, as the escrow holds it' }),
    }),
    intentHash: nullableString.meta({ description: 'Null until the intent is signalled' }),
  })
  .meta({ id: 'CheckoutPaymentQuote' });

export const checkoutPayment = z
  .object({
    id: z.string(),
    orderId: z.string(),
    status: paymentStatus,
    chargebackStatus: z.enum(['NONE', 'CHARGEBACKED']),
    chargeback: z.null().meta({ description: 'PaymentChargebackFact; null until chargebacks exist' }),
    penalties: z.array(paymentPenalty),
    rail: z.string(),
    paymentMethodId: nullableString,
    proofMode: z.enum(['BUYER_TEE', 'SIMULATED']).meta({ description: 'BUYER_TEE: the buyer’s session read by the attestation service; SIMULATED: a sandbox payment' }),
    attestation: z.object({ serviceUrl: z.string() }),
    currency: paymentCurrency,
    payTo: z.string().meta({ description: 'Opaque recipient id, as the payment platform knows the recipient' }),
    recipientRating: z.number().min(1).max(5),
    quote: checkoutPaymentQuote,
    quoteExpiresAt: z.string(),
    memoPolicy: z.enum(['REQUIRED', 'OPTIONAL']),
    suggestedMemo: nullableString,
    paymentAmount: z.string(),
    currencyPerUsdRate: z.string(),
    netSettledUsdcAmount: nullableString,
    totalUsdcFeeAmount: z.string(),
    referralFees: z.array(z.object({ recipient: z.string(), feeUsdc: z.string() })).nullable(),
    railIdentifier: nullableString,
    fulfillTransaction: nullableString,
    errorCode: nullableString.optional().meta({ description: 'Set on the hosted and customer reads only; null on list rows' }),
    errorMessage: nullableString.optional(),
    completedAt: nullableString,
    createdAt: z.string(),
    updatedAt: nullableString,
  })
  .meta({ id: 'CheckoutPayment' });

export const merchantPaymentList = z
  .object({ payments: z.array(checkoutPayment), total: z.number().int(), page: z.number().int(), limit: z.number().int() })
  .meta({ id: 'MerchantPaymentList' });

export const orderPayments = z.object({ payments: z.array(checkoutPayment) }).meta({ id: 'OrderPayments' });

export const checkoutQuotes = z
  .object({
    orderId: z.string(),
    fiatCurrency: nullableString.meta({ description: 'The currency the order asks in, when it has one' }),
    platforms: z.array(
      z.object({
        platform: z.string().meta({ description: 'The rail' }),
        displayAmount: z.string().meta({ description: 'What the customer would send, in currency' }),
        spreadPercentage: z.number().meta({ description: 'How far the price sits above the reference rate, in percent (two decimals)' }),
        paymentMethodId: nullableString,
        currency: paymentCurrency,
        currencyPerUsdRate: z.string(),
        totalUsdcFeeAmount: z.string(),
        payTo: z.string(),
        recipientRating: z.number(),
      }),
    ),
  })
  .meta({ id: 'CheckoutQuotes' });

export const quoteAvailability = z
  .object({
    available: z.boolean(),
    quoteCount: z.number().int().meta({ description: 'Offers that can take the amount now: a maker’s deposit on a rail asked, each Zelle bank counting as its own' }),
    nearbySuggestions: z
      .array(z.object({ amount: z.string(), quoteCount: z.number().int() }))
      .meta({ description: 'Amounts near the one asked (in its unit) that makers can take now, closest first; empty when it is available' }),
  })
  .meta({ id: 'QuoteAvailability' });
