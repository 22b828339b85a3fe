/**
 * The arithmetic of a payout's listings (docs/payout-checkout.md, "Listing and buyers"): what
 * is left to pay the customer, the range each buyer may take, the fiat a buyer paid at the
 * rate the intent bound, and what the chain's facts about the listing's deposit say.
 */
import { sameHex } from '../id-hash.js';
import { ceilDiv, formatFiat } from '../money.js';
import type { PayoutContext } from './payout-types.js';

/** Per buyer payment (document 2, Limits). */
export const MAX_BUYER_USDC = 1_000_000_000n;
/** A listing's deposit in production: 10 to 1,000 USDC (a non-production node may lower the floor to 1). */
export const LISTING_MIN_USDC = 10_000_000n;
export const LISTING_MAX_USDC = 1_000_000_000n;

/** USDC still owed to the customer: the deposit less what buyers paid and what bridge refunds came back short (document 2, Deposit size). */
export function unpaidUsdc(context: Pick<PayoutContext, 'depositAmount' | 'paidUsdc' | 'refundFeeUsdc'>): bigint {
  const deposit = context.depositAmount ?? 0n;
  const spent = context.paidUsdc + context.refundFeeUsdc;
  return deposit > spent ? deposit - spent : 0n;
}

/** The range buyers may take of a listing of `amount`: from the floor (or all of a smaller rest) to 1,000 USDC. */
export function buyerRange(amount: bigint, minUsdc: bigint): { min: bigint; max: bigint } {
  const max = amount < MAX_BUYER_USDC ? amount : MAX_BUYER_USDC;
  return { min: minUsdc < max ? minUsdc : max, max };
}

/** Whether a relist would change the listing: it takes buyers up to more than is left, and what is left is still a listing (at least the floor). */
export function relistable(context: Pick<PayoutContext, 'listing' | 'depositAmount' | 'paidUsdc' | 'refundFeeUsdc' | 'listingMinUsdc'>): boolean {
  if (!context.listing) return false;
  const left = unpaidUsdc(context);
  return left >= context.listingMinUsdc && buyerRange(left, context.listingMinUsdc).max !== context.listing.maxUsdc;
}

/** Fiat cents for `usdc` at a bound rate (18 decimals of fiat per USDC), rounded up at the cent as document 2 says. */
export function fiatCents(usdc: bigint, rate: bigint): bigint {
  return ceilDiv(usdc * rate, 10n ** 22n);
}

export function fiatValue(currency: string, usdc: bigint, rate: bigint | null): { currency: string; amount: string } | null {
  return rate === null ? null : { currency, amount: formatFiat(fiatCents(usdc, rate)) };
}

/** The part of a chain fact the listing reads: its event, by the indexer's oneof name. */
export interface ListingFact {
  id?: string;
  retracted?: boolean;
  transactionHash?: string;
  blockTimestamp?: string;
  fundsLocked?: { depositId: string; intentHash: string; amount: string };
  intentSignaled?: { depositId: string; intentHash: string; conversionRate: string };
  fundsUnlocked?: { depositId: string; intentHash: string; amount: string };
  fundsUnlockedAndTransferred?: { depositId: string; intentHash: string; unlockedAmount: string; transferredAmount: string; to: string };
  depositWithdrawn?: { depositId: string; amount: string };
  depositClosed?: { depositId: string };
  dustCollected?: { depositId: string; amount: string };
}

/** A fact about this payout's listing, not retracted. */
export function listingFact(context: Pick<PayoutContext, 'listing'>, fact: ListingFact): ListingFact | null {
  if (fact.retracted || !context.listing) return null;
  const depositId = (
    fact.fundsLocked ??
    fact.intentSignaled ??
    fact.fundsUnlocked ??
    fact.fundsUnlockedAndTransferred ??
    fact.depositWithdrawn ??
    fact.depositClosed ??
    fact.dustCollected
  )?.depositId;
  return depositId === context.listing.depositId ? fact : null;
}

/** The current buyer's payment, as the fact that released it to them says: USDC that left the listing. */
export function buyerPaid(context: Pick<PayoutContext, 'listing' | 'buyer'>, fact: ListingFact): bigint | null {
  const paid = listingFact(context, fact)?.fundsUnlockedAndTransferred;
  return paid && sameHex(paid.intentHash, context.buyer?.intentHash) ? BigInt(paid.transferredAmount) : null;
}

/** The current buyer's lock given back without payment (expired, cancelled). */
export function buyerReleased(context: Pick<PayoutContext, 'listing' | 'buyer'>, fact: ListingFact): boolean {
  const released = listingFact(context, fact)?.fundsUnlocked;
  return Boolean(released && sameHex(released.intentHash, context.buyer?.intentHash));
}

/** Document 2, Limits: the wallet check runs every 5 minutes; a payout funded in the last 10 is left out until its USDC shows. */
export const WALLET_CHECK_MS = 5 * 60 * 1000;
export const WALLET_CHECK_GRACE_MS = 10 * 60 * 1000;

/** The customer spent the payout's USDC in the wallet app: the wallet no longer covers what is unpaid. */
export function walletSpent(
  context: Pick<PayoutContext, 'depositAmount' | 'paidUsdc' | 'refundFeeUsdc' | 'fundedAt'>,
  balanceUsdc: bigint,
  at: string,
): boolean {
  if (context.fundedAt === null || Date.parse(at) - Date.parse(context.fundedAt) < WALLET_CHECK_GRACE_MS) return false;
  return balanceUsdc < unpaidUsdc(context);
}

/** A rest the escrow swept as dust when the last payment left it (DustCollected of the listing); null for any other fact. */
export function dustSwept(context: Pick<PayoutContext, 'listing'>, fact: ListingFact): bigint | null {
  const swept = listingFact(context, fact)?.dustCollected;
  return swept ? BigInt(swept.amount) : null;
}

/** USDC the customer withdrew from the listing in the wallet app (a DepositWithdrawn of the listing); null for any other fact. */
export function listingWithdrawn(context: Pick<PayoutContext, 'listing'>, fact: ListingFact): bigint | null {
  const withdrawn = listingFact(context, fact)?.depositWithdrawn;
  return withdrawn ? BigInt(withdrawn.amount) : null;
}
