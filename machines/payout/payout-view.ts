/**
 * PayoutView (document 2): the one shape every payout route and webhook carries. It never
 * holds the customer's e-mail, wallet address or payee handle, nor the service's fee.
 * Amounts in USDC are written with at least two decimals (`100.00`), funding amounts in
 * the funding token's own decimals.
 */
import { formatTokenAmount, formatUsdcCents } from '../money.js';
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
  settlement: null;
  attempt: null;
  payoutTransfer: null;
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
  if (status === 'AWAITING_FUNDING' || status === 'CANCELLED') return context.receivedUsdc > 0n ? 'PARTIALLY_FUNDED' : 'AWAITING_FUNDING';
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
    payoutCurrency: null,
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
    paidAmount: formatUsdcCents(0n),
    partialFills: [],
    settlement: null,
    attempt: null,
    payoutTransfer: null,
    cancelSource: context.cancelSource,
    returnUrl: context.returnUrl,
    expiresAt: context.quoteExpiresAt,
    fundedAt: context.fundedAt,
    settledAt: null,
    cancelledAt: context.cancelledAt,
    createdAt: context.createdAt,
  };
}
