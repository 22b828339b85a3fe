/**
 * Document 2's funding arithmetic, in USDC base units. The deposit the provider must
 * deliver is grossed up so that, after the merchant's and the service's fees (basis points
 * of what is deposited), the customer's wallet receives the payout plus a buffer for price
 * movement. Rounding always favours the customer: the deposit rounds up to the last unit,
 * the merchant's fee rounds down.
 *
 * Worked numbers (document 2): 100 USDC at 100 + 200 bps, funded in a stablecoin: buffer 1,
 * deposit 104.123712, merchant fee 1.041237. 1000 USDC: buffer capped at 5, deposit
 * 1036.082475, merchant fee 10.360824.
 */
import { ceilDiv } from '../money.js';

const BPS = 10_000n;
const USDC = 1_000_000n;

/** 1 % capped at 5 USDC for a stablecoin, 2 % capped at 10 USDC for anything else (BTC included). */
export function fundingBuffer(payoutUsdc: bigint, stableFunding: boolean): bigint {
  const [percent, cap] = stableFunding ? [1n, 5n * USDC] : [2n, 10n * USDC];
  const share = ceilDiv(payoutUsdc * percent, 100n);
  return share < cap ? share : cap;
}

/** (payout + buffer) / (1 − (merchant bps + service bps) / 10000), rounded up to the last unit. */
export function grossDeposit(expectedUsdc: bigint, merchantFeeBps: number, serviceFeeBps: number): bigint {
  const kept = BPS - BigInt(merchantFeeBps) - BigInt(serviceFeeBps);
  if (kept <= 0n) throw new RangeError(`fees of ${merchantFeeBps} + ${serviceFeeBps} bps leave nothing to deliver`);
  return ceilDiv(expectedUsdc * BPS, kept);
}

/** A fee in basis points of a deposit, rounded down. */
export function feeOf(depositUsdc: bigint, feeBps: number): bigint {
  return (depositUsdc * BigInt(feeBps)) / BPS;
}

export interface PayoutQuoteAmounts {
  bufferUsdc: bigint;
  /** Payout plus buffer: what the customer's wallet is to receive. */
  expectedUsdc: bigint;
  /** What the provider delivers in all, fees included. */
  depositUsdc: bigint;
  merchantFeeUsdc: bigint;
}

export function payoutQuoteAmounts(payoutUsdc: bigint, stableFunding: boolean, merchantFeeBps: number, serviceFeeBps: number): PayoutQuoteAmounts {
  const bufferUsdc = fundingBuffer(payoutUsdc, stableFunding);
  const expectedUsdc = payoutUsdc + bufferUsdc;
  const depositUsdc = grossDeposit(expectedUsdc, merchantFeeBps, serviceFeeBps);
  return { bufferUsdc, expectedUsdc, depositUsdc, merchantFeeUsdc: feeOf(depositUsdc, merchantFeeBps) };
}

/** At most this far above a whole payout step, what arrived rounds down to the step. */
const STEP_TOLERANCE = USDC;

/**
 * The payout's depositAmount once funded, from the USDC received on time: the payout when
 * received covers it (never more); a whole number of steps when received is at most 1 USDC
 * above one; otherwise what arrived.
 */
export function depositSize(receivedUsdc: bigint, payoutUsdc: bigint, stepUsdc: bigint): bigint {
  if (receivedUsdc >= payoutUsdc) return payoutUsdc;
  const steps = receivedUsdc / stepUsdc;
  if (steps >= 1n && receivedUsdc - steps * stepUsdc <= STEP_TOLERANCE) return steps * stepUsdc;
  return receivedUsdc;
}
