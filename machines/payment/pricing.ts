/**
 * What a payment costs and what it credits, in base units. Two fees come out of the
 * USDC an intent releases, both on chain (Orchestrator._payOut): the protocol fee,
 * `protocolFeeBps` of it, and the platform's fee, paid as the intent's referrer fee
 * (`platformFeeBps` of it). Each is rounded down there, so here too.
 *
 * Who bears the fees is one rule for every fee payer: the buyer bears a share of them,
 * `buyerShareBps` (MERCHANT 0, PAYEE 10,000, SPLIT the order's `buyerFeeShareBps`),
 * and the order is credited with what the intent releases less the buyer's share. The
 * intent is the smallest release whose credit covers what is owed: MERCHANT releases
 * exactly what is owed and absorbs every fee; PAYEE releases enough that the merchant
 * nets what is owed; SPLIT sits between, in proportion. See docs/payments.md for the
 * worked numbers, which the tests reproduce.
 */
import type { FeePayer } from '../merchant/index.js';
import { ceilDiv, FIAT_DECIMALS, RATE_DECIMALS, USDC_DECIMALS } from '../money.js';

/** Conversion rates on chain: fiat per USDC, 18 decimals. */
export const CONVERSION_RATE_DECIMALS = 18;
const BPS = 10_000n;

export interface FeeSchedule {
  protocolFeeBps: number;
  platformFeeBps: number;
}

export interface FeeSplit {
  protocolFeeUsdc: bigint;
  platformFeeUsdc: bigint;
}

/** The fees the chain takes from `released`, each rounded down as Orchestrator._payOut does. */
export function feesOf(released: bigint, schedule: FeeSchedule): FeeSplit {
  return {
    protocolFeeUsdc: (released * BigInt(schedule.protocolFeeBps)) / BPS,
    platformFeeUsdc: (released * BigInt(schedule.platformFeeBps)) / BPS,
  };
}

/** The buyer's share of the fees, in basis points, for an order's fee payer. */
export function buyerShareBps(feePayer: FeePayer, buyerFeeShareBps: number): number {
  if (feePayer === 'MERCHANT') return 0;
  if (feePayer === 'PAYEE') return 10_000;
  return buyerFeeShareBps;
}

/** What a release of `released` credits the order: all of it but the buyer's share of the fees, rounded up (the buyer's share down). */
export function creditOf(released: bigint, schedule: FeeSchedule, shareBps: number): bigint {
  const { protocolFeeUsdc, platformFeeUsdc } = feesOf(released, schedule);
  return released - ((protocolFeeUsdc + platformFeeUsdc) * BigInt(shareBps)) / BPS;
}

export interface IntentPrice extends FeeSplit {
  /** What the intent locks and releases. */
  releasedUsdc: bigint;
  totalFeeUsdc: bigint;
  /** What reaches the destination. */
  netUsdc: bigint;
  /** What the order counts as paid. */
  creditUsdc: bigint;
}

/**
 * The smallest release whose credit covers `owedUsdc`. Credit grows by at most one
 * base unit per unit released (fees are under 100%), so the estimate from the exact
 * fraction is at most a few units off and the walk to the smallest is short.
 */
export function priceIntent(owedUsdc: bigint, schedule: FeeSchedule, shareBps: number): IntentPrice {
  if (owedUsdc <= 0n) throw new RangeError(`a payment covers a positive amount: got ${owedUsdc}`);
  const totalBps = BigInt(schedule.protocolFeeBps + schedule.platformFeeBps);
  if (totalBps >= BPS) throw new RangeError('fees must stay under 100%');
  const borneBps = totalBps * BigInt(shareBps);
  let released = ceilDiv(owedUsdc * BPS * BPS, BPS * BPS - borneBps);
  while (released > owedUsdc && creditOf(released - 1n, schedule, shareBps) >= owedUsdc) released--;
  while (creditOf(released, schedule, shareBps) < owedUsdc) released++;
  const fees = feesOf(released, schedule);
  const totalFeeUsdc = fees.protocolFeeUsdc + fees.platformFeeUsdc;
  return { releasedUsdc: released, ...fees, totalFeeUsdc, netUsdc: released - totalFeeUsdc, creditUsdc: creditOf(released, schedule, shareBps) };
}

const OWED_SCALE = 10n ** BigInt(USDC_DECIMALS + CONVERSION_RATE_DECIMALS - FIAT_DECIMALS);

/**
 * The fiat, in cents, that buys `usdcAmount` at `conversionRate` (fiat per USDC, 18
 * decimals), rounded up: a payment a fraction of a cent short does not release the
 * whole intent. The attestation service holds a payment to the same figure.
 */
export function fiatOwed(usdcAmount: bigint, conversionRate: bigint): bigint {
  return ceilDiv(usdcAmount * conversionRate, OWED_SCALE);
}

/** An on-chain conversion rate (18 decimals) as document 1's `currencyPerUsdRate` (6 decimals), rounded up as the buyer pays it. */
export function currencyPerUsdRate(conversionRate: bigint): bigint {
  return ceilDiv(conversionRate, 10n ** BigInt(CONVERSION_RATE_DECIMALS - RATE_DECIMALS));
}

/** An attempt priced on one deposit: the intent for `owedUsdc` and the fiat it costs at the deposit's `conversionRate`. */
export function priceAttempt(
  owedUsdc: bigint,
  schedule: FeeSchedule,
  shareBps: number,
  conversionRate: bigint,
): { price: IntentPrice; paymentAmountCents: bigint } {
  const price = priceIntent(owedUsdc, schedule, shareBps);
  return { price, paymentAmountCents: fiatOwed(price.releasedUsdc, conversionRate) };
}
