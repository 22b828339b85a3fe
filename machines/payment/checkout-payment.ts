/**
 * The CheckoutPayment of document 1, exactly as the API returns it and as every
 * payment webhook carries it. The quote follows the public CheckoutPaymentQuote shape
 * of Peer's shared types. `errorCode` is the hosted read's only: list rows and webhooks
 * carry it as null (document 1); `errorMessage`, which document 1 does not restrict, says
 * why everywhere the payment is shown.
 *
 * `penalties` are those the settlement applied (penalties.ts), and once any applied
 * `paymentAmount` follows document 1's rule for the fee payer.
 *
 * On a crypto rail the quote describes the conversion in the same shape: `depositId` is
 * the provider's request, `escrowAddress` and `payeeDetails` the deposit address the
 * customer sends to, `fiatCurrencyCode` the token, `amount` the USDC delivered, and
 * `conversionRate` the token paid per USDC delivered (18 decimals). `paymentAmount` is in
 * the token, `currency` its symbol.
 */
import { formatFiat, formatRate, formatTokenAmount, formatUsdc } from '../money.js';
import type { CryptoConversion, MemoPolicy, PaymentContext, PaymentStatus, ProofMode } from './payment-types.js';
import { currencyPerUsdRate } from './pricing.js';
import { paymentReference } from './payment-reference.js';
import type { PaymentChargebackFact } from './chargeback-types.js';
import { referralFeesOf, type SettlementReferralFeeEntry } from './referral-fees.js';
import { buyerShareOf, penalisedPaymentAmount, type PenaltyKind, type PenaltyTerm } from './penalties.js';

/** Absent on snapshots from before penalties, which applied none. */
const penaltiesOf = (context: PaymentContext): PenaltyTerm[] => context.penalties ?? [];

export interface PaymentPenalty {
  kind: PenaltyKind;
  penaltyBps: number;
  originalAmount: string;
  attestedAmount: string;
}

function penaltyRow(term: PenaltyTerm): PaymentPenalty {
  return { kind: term.kind, penaltyBps: term.penaltyBps, originalAmount: formatFiat(term.originalCents), attestedAmount: formatFiat(term.attestedCents) };
}

export interface CheckoutPaymentQuote {
  /** Fiat per USDC, 18 decimals, as the intent carries it. */
  conversionRate: string;
  signalIntent: {
    processorName: string;
    depositId: string;
    amount: string;
    toAddress: string;
    escrowAddress: string;
    fiatCurrencyCode: string;
    payeeDetails: string;
  };
  intentHash: string | null;
}

export interface CheckoutPayment {
  id: string;
  orderId: string;
  status: PaymentStatus;
  chargebackStatus: 'NONE' | 'CHARGEBACKED';
  chargeback: PaymentChargebackFact | null;
  penalties: PaymentPenalty[];
  rail: string;
  paymentMethodId: string | null;
  proofMode: ProofMode;
  attestation: { serviceUrl: string };
  currency: string;
  payTo: string;
  recipientRating: number;
  quote: CheckoutPaymentQuote;
  quoteExpiresAt: string;
  memoPolicy: MemoPolicy;
  suggestedMemo: string | null;
  paymentAmount: string;
  currencyPerUsdRate: string;
  netSettledUsdcAmount: string | null;
  totalUsdcFeeAmount: string;
  referralFees: SettlementReferralFeeEntry[] | null;
  railIdentifier: string | null;
  fulfillTransaction: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string | null;
}

/** The conversion of a crypto attempt; null on fiat rails and on snapshots written before crypto rails existed. */
export const conversionOf = (context: PaymentContext): CryptoConversion | null => context.conversion ?? null;

/** What the customer is asked to send, as the API writes it: fiat to the cent, or on a crypto rail the token to its decimals. */
export function paymentAmountText(paymentAmountCents: bigint, conversion: Pick<CryptoConversion, 'originAmount' | 'originDecimals'> | null): string {
  return conversion ? formatTokenAmount(conversion.originAmount, conversion.originDecimals) : formatFiat(paymentAmountCents);
}

export function toCheckoutPayment(context: PaymentContext, status: PaymentStatus, options: { hosted: boolean }): CheckoutPayment {
  const { quote, price } = context;
  const conversion = conversionOf(context);
  return {
    id: context.id,
    orderId: context.orderId,
    status,
    // Additive: a chargeback never changes status (docs/chargebacks.md).
    chargebackStatus: (context.chargeback ?? null) === null ? 'NONE' : 'CHARGEBACKED',
    chargeback: context.chargeback ?? null,
    penalties: penaltiesOf(context).map(penaltyRow),
    rail: context.rail,
    paymentMethodId: context.paymentMethodId,
    proofMode: context.proofMode,
    attestation: { serviceUrl: context.attestationServiceUrl },
    currency: context.currency,
    payTo: context.payTo,
    recipientRating: context.recipientRating,
    quote: {
      conversionRate: quote.conversionRate.toString(),
      signalIntent: {
        processorName: quote.processorName,
        depositId: quote.depositId,
        amount: price.releasedUsdc.toString(),
        toAddress: quote.toAddress,
        escrowAddress: quote.escrowAddress,
        fiatCurrencyCode: quote.fiatCurrencyCode,
        payeeDetails: quote.payeeDetails,
      },
      intentHash: context.railIdentifier,
    },
    quoteExpiresAt: context.quoteExpiresAt,
    memoPolicy: context.memoPolicy,
    suggestedMemo: !conversion && context.railIdentifier?.startsWith('0x') ? paymentReference(context.railIdentifier as `0x${string}`) : null,
    paymentAmount:
      penaltiesOf(context).length > 0
        ? formatFiat(penalisedPaymentAmount(penaltiesOf(context), buyerShareOf(context)))
        : paymentAmountText(context.paymentAmountCents, conversion),
    currencyPerUsdRate: formatRate(currencyPerUsdRate(quote.conversionRate)),
    netSettledUsdcAmount: context.netSettledUsdcAmount === null ? null : formatUsdc(context.netSettledUsdcAmount),
    totalUsdcFeeAmount: formatUsdc(context.settledFeeUsdc ?? price.totalFeeUsdc),
    referralFees: referralFeesOf(context, status),
    railIdentifier: context.railIdentifier,
    fulfillTransaction: context.fulfillTransaction,
    errorCode: options.hosted ? context.errorCode : null,
    errorMessage: context.errorMessage,
    completedAt: context.completedAt,
    createdAt: context.createdAt,
    updatedAt: context.updatedAt,
  };
}
