/**
 * The resources the payment endpoints answer: CheckoutPayment (document 1, its quote in
 * the public CheckoutPaymentQuote shape of Peer's shared types), the merchant's payment
 * lists, the customer's quotes (pay-shared's CheckoutQuotes, each entry with what the
 * customer needs to choose) and the merchant's quote availability.
 */
import { z } from 'zod';
import { pageFields, paymentCurrency } from '../schemas/common.js';

const nullableString = z.string().nullable();

export const paymentStatus = z.enum(['CREATED', 'SETTLED', 'CANCELLED', 'EXPIRED', 'FAILED']);

/** Document 1's PaymentChargebackFact (docs/chargebacks.md). */
export const paymentChargebackFact = z
  .object({
    paymentId: z.string().meta({ description: 'The payment charged back' }),
    intentHash: z.string().meta({ description: 'Its intent on chain' }),
    disputeId: z.string().meta({ description: 'The dispute the reversal belongs to' }),
    status: z.enum(['CHARGEBACKED']).meta({ description: 'Always CHARGEBACKED' }),
    compensatedUsdcAmount: z.string().meta({ description: 'What the maker’s stake paid, in USDC; less than claimed when the stake was short' }),
    disputedAt: z.string().meta({ description: 'When the escrow recorded it: the block’s time, ISO 8601' }),
    disputeTxHash: z.string().meta({ description: 'The transaction that recorded it' }),
    refundOverlap: z
      .enum(['NONE', 'PENDING_HALTED', 'SUBMITTING_OR_UNKNOWN', 'ALREADY_SUBMITTED', 'ALREADY_REFUNDED'])
      .meta({ description: 'How far the order’s refunds had gone when it arrived: the furthest refund decides (docs/chargebacks.md)' }),
    bridgeOrSweepOverlap: z
      .object({
        paymentBridgeId: z.string().meta({ description: 'The bridge of the payment’s USDC' }),
        status: z.enum(['PENDING', 'SUBMITTED', 'COMPLETED', 'FAILED']).meta({ description: 'Where that bridge stood' }),
      })
      .nullable()
      .meta({ description: 'A bridge or sweep of the payment’s USDC under way when it arrived; null when none' }),
  })
  .meta({
    id: 'PaymentChargebackFact',
    description: 'A fiat payment reversed on its rail after it settled, which the maker’s stake compensated and the escrow recorded on chain',
  });

const paymentPenalty = z
  .object({
    kind: z
      .enum(['PURCHASE_PROTECTION', 'CROSS_CURRENCY'])
      .meta({ description: 'Why the payment counted for less: the platform’s purchase protection, or a payment in another currency' }),
    penaltyBps: z
      .number()
      .int()
      .meta({ description: 'The rate applied, in basis points, as the attestation service set it; do not infer a fixed rate from the platform' }),
    originalAmount: z.string().meta({ description: 'The amount before this penalty, two decimals, in the payment’s currency' }),
    attestedAmount: z.string().meta({ description: 'The amount after this penalty, two decimals, in the payment’s currency' }),
  })
  .meta({
    id: 'PaymentPenalty',
    description:
      'A penalty the verified payment was counted with. Entries are in the order applied (CROSS_CURRENCY first), so a second entry’s originalAmount is the first’s attestedAmount',
  });

const checkoutPaymentQuote = z
  .object({
    conversionRate: z.string().meta({ description: 'Fiat per USDC, 18 decimals, as the intent carries it' }),
    signalIntent: z
      .object({
        processorName: z.string().meta({ description: 'The payment platform (venmo, zelle, …)' }),
        depositId: z.string().meta({ description: 'The maker’s deposit the intent is signalled on; on a crypto rail, the conversion provider’s request id' }),
        amount: z.string().meta({ description: 'USDC base units the intent locks' }),
        toAddress: z.string().meta({ description: 'Where the escrow releases the USDC' }),
        escrowAddress: z
          .string()
          .meta({ description: 'The escrow contract holding the deposit; on a crypto rail, the address to send to; the zero address in the sandbox' }),
        fiatCurrencyCode: z.string().meta({ description: 'The currency the customer pays in (ISO 4217; on a crypto rail, the token)' }),
        payeeDetails: z.string().meta({ description: 'keccak256 of the recipient id, as the escrow holds it' }),
      })
      .meta({ description: 'The intent reserving the maker’s USDC for this attempt, as it is signalled on chain' }),
    intentHash: nullableString.meta({ description: 'Null until the intent is signalled' }),
  })
  .meta({ id: 'CheckoutPaymentQuote', description: 'The offer reserved for the customer while the attempt is CREATED' });

export const checkoutPayment = z
  .object({
    id: z.string().meta({ description: 'The payment id (pay_…); never changes, key your references on it' }),
    orderId: z.string().meta({ description: 'The order this attempt pays' }),
    status: paymentStatus.meta({
      description:
        'CREATED (open: the customer pays in the window), SETTLED (verified and the USDC delivered), CANCELLED (the customer backed out or switched), EXPIRED (the window closed) or FAILED',
    }),
    chargebackStatus: z.enum(['NONE', 'CHARGEBACKED']).meta({ description: 'Whether the payment was charged back; additive, it never changes status' }),
    chargeback: paymentChargebackFact.nullable().meta({ description: 'The chargeback; null while none' }),
    penalties: z.array(paymentPenalty).meta({ description: 'Penalties the verified payment was counted with; always present, empty when none applied' }),
    rail: z.string().meta({ description: 'The rail paid on: venmo, zelle, …, or relay_<chainId> for crypto' }),
    paymentMethodId: nullableString.meta({ description: 'The customer’s Zelle bank (zelle-chase, zelle-bofa, zelle-citi), for display; null on other rails' }),
    proofMode: z
      .enum(['BUYER_TEE', 'SIMULATED'])
      .meta({ description: 'BUYER_TEE: the buyer’s session read by the attestation service; SIMULATED: a sandbox payment' }),
    attestation: z
      .object({ serviceUrl: z.string().meta({ description: 'The attestation service’s address, as the customer’s browser reaches it' }) })
      .meta({ description: 'Where the customer’s proof of payment is verified' }),
    currency: paymentCurrency,
    payTo: z.string().meta({ description: 'Opaque recipient id, as the payment platform knows the recipient' }),
    recipientRating: z.number().min(1).max(5).meta({ description: 'How reliably the recipient (a maker) has released payments, from 1.0 to 5.0, one decimal' }),
    quote: checkoutPaymentQuote,
    quoteExpiresAt: z.string().meta({ description: 'When the customer’s window to pay closes (ISO 8601)' }),
    memoPolicy: z.enum(['REQUIRED', 'OPTIONAL']).meta({ description: 'Whether the payment must carry suggestedMemo as its note' }),
    suggestedMemo: nullableString.meta({ description: 'The note to write on the payment; null for none' }),
    paymentAmount: z.string().meta({ description: 'What the customer is asked to send, in currency' }),
    currencyPerUsdRate: z.string().meta({ description: 'Units of currency per US dollar, fixed when the quote was taken' }),
    netSettledUsdcAmount: nullableString.meta({ description: 'USDC the merchant received after every fee; null until SETTLED' }),
    totalUsdcFeeAmount: z.string().meta({ description: 'Every fee taken from the settlement, in USDC' }),
    referralFees: z
      .array(
        z
          .object({
            recipient: z.string().meta({ description: 'Who receives the fee' }),
            feeUsdc: z.string().meta({ description: 'Its part of the platform’s fee, in USDC' }),
            bps: z.number().int().meta({ description: 'Its share of the platform’s fee, in basis points of that fee' }),
          })
          .meta({ id: 'SettlementReferralFeeEntry', description: 'One recipient’s part of the platform’s fee on a settlement' }),
      )
      .nullable()
      .meta({
        description:
          'The platform’s fee on the settlement (the chain’s referrer fee), per recipient: the order’s referral partners by their shares, then the platform with the rest; null until SETTLED and when no fee was taken',
      }),
    railIdentifier: nullableString.meta({
      description:
        'Opaque: the intent on chain on a fiat rail, the transfer request on a crypto rail. Null until the attempt is registered; changes only when a recreate reopens it',
    }),
    fulfillTransaction: nullableString.meta({ description: 'The settlement transaction’s hash (sim_<payment id> in the sandbox); null until SETTLED' }),
    errorCode: nullableString.optional().meta({ description: 'Set on the hosted and customer reads only; null on list rows' }),
    errorMessage: nullableString.optional().meta({ description: 'Why the last step failed, in words, when known; for people, not for matching' }),
    completedAt: nullableString.meta({ description: 'When the attempt reached SETTLED, CANCELLED, EXPIRED or FAILED (ISO 8601)' }),
    createdAt: z.string().meta({ description: 'When the customer started the attempt (ISO 8601)' }),
    updatedAt: nullableString.meta({ description: 'When the attempt last changed (ISO 8601); null if it never did' }),
  })
  .meta({ id: 'CheckoutPayment', description: 'One attempt to pay an order; an order may have several' });

export const merchantPaymentList = z
  .object({ payments: z.array(checkoutPayment).meta({ description: 'This page of attempts, newest first' }), ...pageFields('attempts') })
  .meta({ id: 'MerchantPaymentList' });

export const orderPayments = z
  .object({ payments: z.array(checkoutPayment).meta({ description: 'Every attempt of the order, newest first' }) })
  .meta({ id: 'OrderPayments' });

export const checkoutQuotes = z
  .object({
    orderId: z.string().meta({ description: 'The order quoted' }),
    fiatCurrency: nullableString.meta({ description: 'The currency the order asks in, when it has one' }),
    platforms: z
      .array(
        z.object({
          platform: z.string().meta({ description: 'The rail' }),
          displayAmount: z.string().meta({ description: 'What the customer would send, in currency' }),
          spreadPercentage: z.number().meta({ description: 'How far the price sits above the reference rate, in percent (two decimals)' }),
          paymentMethodId: nullableString.meta({ description: 'The Zelle bank quoted; null on other rails' }),
          currency: paymentCurrency,
          currencyPerUsdRate: z.string().meta({ description: 'Units of currency per US dollar in this offer' }),
          totalUsdcFeeAmount: z.string().meta({ description: 'Every fee the payment would carry, in USDC' }),
          payTo: z.string().meta({ description: 'Opaque recipient id, as the payment platform knows the recipient' }),
          recipientRating: z.number().meta({ description: 'How reliably the recipient has released payments, from 1.0 to 5.0' }),
        }),
      )
      .meta({ description: 'The offers, best first within each rail; a rail without liquidity has none' }),
  })
  .meta({ id: 'CheckoutQuotes' });

export const quoteAvailability = z
  .object({
    available: z.boolean().meta({ description: 'At least one offer can take the amount now' }),
    quoteCount: z
      .number()
      .int()
      .meta({ description: 'Offers that can take the amount now: a maker’s deposit on a rail asked, each Zelle bank counting as its own' }),
    nearbySuggestions: z
      .array(
        z.object({
          amount: z.string().meta({ description: 'An amount makers can take now, in the unit asked' }),
          quoteCount: z.number().int().meta({ description: 'Offers that can take it' }),
        }),
      )
      .meta({ description: 'Amounts near the one asked (in its unit) that makers can take now, closest first; empty when it is available' }),
  })
  .meta({ id: 'QuoteAvailability' });
