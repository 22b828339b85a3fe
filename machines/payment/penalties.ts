/**
 * Penalties (document 1's PaymentPenalty): what the attestation service takes off a payment
 * before it prices the release, at rates that are its own and that it signs into the
 * attestation (attestation-abi.ts). CROSS_CURRENCY first, on a payment made in another
 * currency than the intent's, converted at the service's rate; then PURCHASE_PROTECTION, on a
 * deposit with dispute protection. Each applies to what the one before left, so a second
 * entry's original is the first's attested amount. Amounts are cents of the intent's currency
 * (the payment's `currency`), and every step rounds down to the cent: a penalty is never
 * less than its rate, and a conversion never credits a fraction of a cent that was not paid.
 *
 * Who bears the cut follows the fee payer, as fees do (pricing.ts): the buyer's share of the
 * fees is the buyer's share of the penalty. MERCHANT: the order is credited in full and shows
 * the amount the customer sent; PAYEE: the order is credited what the penalised release nets
 * and shows the penalised amount, so the shortfall stays owed; SPLIT sits between.
 * docs/penalties.md works the numbers.
 */
import type { Hex } from 'viem';
import { FIAT_DECIMALS, RATE_DECIMALS, USDC_DECIMALS } from '../money.js';
import { readAttestedRelease, type PenaltyKind, type PenaltyTerm } from './attestation-abi.js';

export type { PenaltyKind, PenaltyTerm };
import type { PaymentContext } from './payment-types.js';
import { buyerShareBps, CONVERSION_RATE_DECIMALS, feesOf, type FeeSchedule, type IntentPrice } from './pricing.js';

/** Application order (document 1). */
export const PENALTY_ORDER: readonly PenaltyKind[] = ['CROSS_CURRENCY', 'PURCHASE_PROTECTION'];

const BPS = 10_000n;
const RATE_SCALE = 10n ** BigInt(RATE_DECIMALS);
const USDC_PER_CENT_SCALE = 10n ** BigInt(USDC_DECIMALS + CONVERSION_RATE_DECIMALS - FIAT_DECIMALS);

function checkBps(bps: number): bigint {
  if (!Number.isInteger(bps) || bps < 0 || bps > 10_000) throw new RangeError(`a penalty rate is 0 to 10000 basis points: got ${bps}`);
  return BigInt(bps);
}

/** What is left of `originalCents` after `penaltyBps`, rounded down to the cent. */
export function penalise(originalCents: bigint, penaltyBps: number): bigint {
  return (originalCents * (BPS - checkBps(penaltyBps))) / BPS;
}

/** The penalties applied in turn to `amountCents`, each to what the last left. Refuses steps out of document 1's order. */
export function chainPenalties(amountCents: bigint, steps: readonly { kind: PenaltyKind; penaltyBps: number }[]): PenaltyTerm[] {
  const order = steps.map((step) => PENALTY_ORDER.indexOf(step.kind));
  if (order.some((index, at) => index < 0 || (at > 0 && index <= order[at - 1]!))) {
    throw new RangeError(`penalties apply once each, in the order ${PENALTY_ORDER.join(', ')}`);
  }
  const terms: PenaltyTerm[] = [];
  let amount = amountCents;
  for (const step of steps) {
    const attested = penalise(amount, step.penaltyBps);
    terms.push({ kind: step.kind, penaltyBps: step.penaltyBps, originalCents: amount, attestedCents: attested });
    amount = attested;
  }
  return terms;
}

/** Cents of one currency in another at `rate` (target units per source unit, 6 decimals), rounded down. */
export function convertFiat(cents: bigint, rate: bigint): bigint {
  if (rate <= 0n) throw new RangeError('an exchange rate is positive');
  return (cents * rate) / RATE_SCALE;
}

/**
 * The USDC that `cents` buys at `conversionRate` (fiat per USDC, 18 decimals), at most the
 * intent's amount, rounded down: the inverse of fiatOwed, never releasing what was not paid.
 */
export function penalisedRelease(intentAmount: bigint, cents: bigint, conversionRate: bigint): bigint {
  const bought = (cents * USDC_PER_CENT_SCALE) / conversionRate;
  return bought < intentAmount ? bought : intentAmount;
}

/** What a release nets the destination after the chain's fees. */
function netOf(released: bigint, fees: FeeSchedule): bigint {
  const { protocolFeeUsdc, platformFeeUsdc } = feesOf(released, fees);
  return released - protocolFeeUsdc - platformFeeUsdc;
}

/**
 * The penalties a settlement applied: those of the attestation the attempt holds, when what the
 * chain delivered is what that attestation's release nets. A release the attestation did not
 * make (the maker releasing by hand, at the full amount) applied none.
 */
export function appliedPenalties(paymentProof: Hex | null, fees: FeeSchedule, deliveredUsdc: bigint): PenaltyTerm[] {
  if (paymentProof === null) return [];
  const attested = readAttestedRelease(paymentProof);
  if (attested === null || attested.penalties.length === 0 || netOf(attested.releaseAmount, fees) !== deliveredUsdc) return [];
  return attested.penalties;
}

/**
 * What a penalised settlement credits the order: what it is owed less the buyer's share of what
 * the penalties cut from the destination's net, that share rounded down (the credit up), as
 * the buyer's share of the fees is.
 */
export function penalisedCredit(price: IntentPrice, deliveredUsdc: bigint, shareBps: number): bigint {
  const cut = price.netUsdc > deliveredUsdc ? price.netUsdc - deliveredUsdc : 0n;
  const credit = price.creditUsdc - (cut * checkBps(shareBps)) / BPS;
  return credit > 0n ? credit : 0n;
}

/**
 * document 1's paymentAmount once penalties applied: MERCHANT the first entry's original (what
 * the customer sent), PAYEE the last entry's attested amount (what was credited), SPLIT the
 * original less the buyer's share of the cut, rounded down (the amount up).
 */
export function penalisedPaymentAmount(terms: readonly PenaltyTerm[], shareBps: number): bigint {
  const first = terms[0];
  const last = terms.at(-1);
  if (!first || !last) throw new RangeError('no penalty applied');
  return first.originalCents - ((first.originalCents - last.attestedCents) * checkBps(shareBps)) / BPS;
}

/** The buyer's share of fees and penalties on this attempt. */
export function buyerShareOf(context: Pick<PaymentContext, 'buyerShareBps' | 'feePayer'>): number {
  return context.buyerShareBps ?? buyerShareBps(context.feePayer, 0);
}

/**
 * What an IntentFulfilled delivering `deliveredUsdc` settles: the penalties it applied and what
 * it credits the order. A release short of the intent for any other reason (not the attestation's
 * doing) credits the order short by as much as the destination received less, whoever pays fees.
 */
export function settlementOf(
  context: Pick<PaymentContext, 'paymentProof' | 'fees' | 'price' | 'buyerShareBps' | 'feePayer'>,
  deliveredUsdc: bigint,
): { penalties: PenaltyTerm[]; creditedUsdc: bigint } {
  const penalties = appliedPenalties(context.paymentProof, context.fees, deliveredUsdc);
  const shareBps = penalties.length > 0 ? buyerShareOf(context) : 10_000;
  return { penalties, creditedUsdc: penalisedCredit(context.price, deliveredUsdc, shareBps) };
}
