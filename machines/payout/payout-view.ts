/**
 * PayoutView (document 2): the one shape every payout route and webhook carries. It never
 * holds the customer's e-mail, wallet address or payee handle, nor the service's fee.
 * Amounts in USDC are written with at least two decimals (`100.00`), funding amounts in
 * the funding token's own decimals.
 */
import { formatFiat, formatTokenAmount, formatUsdcCents, parseFiat } from '../money.js';
import { BASE_CHAIN_ID, BASE_USDC_ADDRESS } from './funding-catalog.js';
import { tallyOf } from './funding-state.js';
import type { PayoutContext, PayoutFundingStatus, PayoutStatus } from './payout-types.js';

export interface PayoutView {
  payoutId: string;
  merchantReference: string | null;
  status: PayoutStatus;
  fundingStatus: PayoutFundingStatus;
  payoutCurrency: string | null;
  payout: { amount: string; chainId: number; tokenAddress: string; decimals: number };
  merchantFee: { bps: number; amount: string };
  funding: {
    chainId: number;
    tokenAddress: string;
    decimals: number;
    amount: string;
    sentAmount: string;
    missingAmount: string;
    expectedAmount: string;
    receivedAmount: string;
    depositAddress: string | null;
    quoteExpiresAt: string;
  };
  depositAmount: string | null;
  paidAmount: string;
  partialFills: Array<{ fiat: { currency: string; amount: string } | null; amount: string; txHash: string; paidAt: string }>;
  settlement: {
    buyerPaidAmount: string;
    buyerPaidFiat: Array<{ currency: string; amount: string }> | null;
    sentAmount: string;
    sentTo: string | null;
    returnedAmount: string;
    dustAmount: string;
    refundFeeAmount: string;
  } | null;
  attempt: { kind: 'ESCROW' | 'CRYPTO'; rail: string | null; status: 'ACTIVE' | 'CLOSED' | 'SETTLED' | 'FAILED' } | null;
  payoutTransfer: {
    chainId: number;
    tokenAddress: string;
    decimals: number;
    address: string;
    amount: string;
    txHash: string;
    usdcTxHash: string;
    provider: 'ROUTEA' | 'ROUTEB' | null;
  } | null;
  cancelSource: 'MERCHANT' | 'PEER_APP' | null;
  returnUrl: string | null;
  expiresAt: string;
  fundedAt: string | null;
  settledAt: string | null;
  cancelledAt: string | null;
  createdAt: string;
}

export function fundingStatusOf(context: PayoutContext, status: PayoutStatus): PayoutFundingStatus {
  if (status === 'EXPIRED') return 'FUNDING_EXPIRED';
  // A payout cancelled after it was funded (the customer spent it in the wallet app) stays FUNDED.
  if (status === 'AWAITING_FUNDING' || (status === 'CANCELLED' && context.fundedAt === null))
    return context.receivedUsdc > 0n ? 'PARTIALLY_FUNDED' : 'AWAITING_FUNDING';
  return 'FUNDED';
}

/** `open`: the deadline has not passed yet; the deposit address is shown only then, and only while funding is open. */
export function toPayoutView(context: PayoutContext, status: PayoutStatus, open: boolean): PayoutView {
  const { decimals } = context.funding;
  const sent = tallyOf(context).sent;
  const missing = context.fundingAmount > sent ? context.fundingAmount - sent : 0n;
  return {
    payoutId: context.id,
    merchantReference: context.merchantReference,
    status,
    fundingStatus: fundingStatusOf(context, status),
    payoutCurrency: context.method?.kind === 'FIAT' ? context.method.currency : null,
    payout: { amount: formatUsdcCents(context.payoutUsdc), chainId: BASE_CHAIN_ID, tokenAddress: BASE_USDC_ADDRESS, decimals: 6 },
    merchantFee: { bps: context.terms.merchantFeeBps, amount: formatUsdcCents(context.merchantFeeUsdc) },
    funding: {
      chainId: context.funding.chainId,
      tokenAddress: context.funding.tokenAddress,
      decimals,
      amount: formatTokenAmount(context.fundingAmount, decimals),
      sentAmount: formatTokenAmount(sent, decimals),
      missingAmount: formatTokenAmount(missing, decimals),
      expectedAmount: formatUsdcCents(context.expectedUsdc),
      receivedAmount: formatUsdcCents(context.receivedUsdc),
      depositAddress: status === 'AWAITING_FUNDING' && open ? context.depositAddress : null,
      quoteExpiresAt: context.quoteExpiresAt,
    },
    depositAmount: context.depositAmount === null ? null : formatUsdcCents(context.depositAmount),
    paidAmount: formatUsdcCents(context.paidUsdc),
    partialFills: context.partialFills.map((fill) => ({ fiat: fill.fiat, amount: formatUsdcCents(fill.amount), txHash: fill.txHash, paidAt: fill.paidAt })),
    settlement: status === 'SETTLED' ? settlementView(context) : null,
    attempt: attemptOf(context, status),
    payoutTransfer:
      status === 'SETTLED' && context.payoutTransfer
        ? { ...context.payoutTransfer, amount: formatTokenAmount(context.payoutTransfer.amount, context.payoutTransfer.decimals) }
        : null,
    cancelSource: context.cancelSource,
    returnUrl: context.returnUrl,
    expiresAt: context.quoteExpiresAt,
    fundedAt: context.fundedAt,
    settledAt: context.settledAt,
    cancelledAt: context.cancelledAt,
    createdAt: context.createdAt,
  };
}

/** One fiat total per currency, in first-paid order; null when any payment's fiat is unknown. */
function buyerPaidFiat(context: PayoutContext): Array<{ currency: string; amount: string }> | null {
  const { fills } = context;
  if (fills.some((fill) => fill.fiat === null)) return null;
  const totals = new Map<string, bigint>();
  for (const fill of fills) totals.set(fill.fiat!.currency, (totals.get(fill.fiat!.currency) ?? 0n) + parseFiat(fill.fiat!.amount));
  return [...totals].map(([currency, cents]) => ({ currency, amount: formatFiat(cents) }));
}

function settlementView(context: PayoutContext): NonNullable<PayoutView['settlement']> {
  const settled = context.settlement!;
  return {
    buyerPaidAmount: formatUsdcCents(settled.buyerPaidUsdc),
    buyerPaidFiat: buyerPaidFiat(context),
    sentAmount: formatUsdcCents(settled.sentUsdc),
    sentTo: settled.sentTo,
    returnedAmount: formatUsdcCents(settled.returnedUsdc),
    dustAmount: formatUsdcCents(settled.dustUsdc),
    refundFeeAmount: formatUsdcCents(settled.refundFeeUsdc),
  };
}

/** The latest attempt: a buyer-paid listing while one is up or once it settled the payout, or the crypto send. */
function attemptOf(context: PayoutContext, status: PayoutStatus): PayoutView['attempt'] {
  if (context.sends > 0 && context.method?.kind === 'CRYPTO') {
    const sendStatus = status === 'SETTLED' ? 'SETTLED' : context.sendError ? 'FAILED' : 'ACTIVE';
    return { kind: 'CRYPTO', rail: context.method.rail, status: sendStatus };
  }
  if (!context.listing) return null;
  const attemptStatus = status === 'SETTLED' ? 'SETTLED' : status === 'LISTING' || status === 'PAYING' ? 'ACTIVE' : 'CLOSED';
  return { kind: 'ESCROW', rail: context.listing.rail, status: attemptStatus };
}
