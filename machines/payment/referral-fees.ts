/**
 * document 1's referralFees (SettlementReferralFeeEntry[]): the platform's fee on a settled
 * payment, which the chain paid to the intent's referrer (Orchestrator._payOut's referrer fee;
 * on a crypto rail the conversion provider's app fee), broken down by the order's referral
 * split. Each partner's part is its share of the fee, rounded down to the base unit; the
 * referrer keeps the rest, rounding included, so the parts add up to the fee exactly. Null
 * while nothing is settled and when no fee was taken.
 */
import { formatUsdc } from '../money.js';
import { readAttestedRelease } from './attestation-abi.js';
import type { PaymentContext, PaymentReferral, PaymentStatus } from './payment-types.js';
import { feesOf } from './pricing.js';

export interface SettlementReferralFeeEntry {
  recipient: string;
  /** USDC, as document 1 writes it. */
  feeUsdc: string;
  /** This entry's share of the platform's fee, in basis points. */
  bps: number;
}

const BPS = 10_000n;

/** The fee broken down: the split's partners first, in their order, then the referrer with the rest. */
function splitReferralFee(feeUsdc: bigint, referral: PaymentReferral): SettlementReferralFeeEntry[] | null {
  if (feeUsdc <= 0n) return null;
  const partners = (referral.split?.recipients ?? []).map((entry) => ({
    recipient: entry.recipient,
    units: (feeUsdc * BigInt(entry.bps)) / BPS,
    bps: entry.bps,
  }));
  const taken = partners.reduce((sum, entry) => sum + entry.units, 0n);
  const rest = feeUsdc - taken;
  const restBps = 10_000 - partners.reduce((sum, entry) => sum + entry.bps, 0);
  const entries = partners.map((entry) => ({ recipient: entry.recipient, feeUsdc: formatUsdc(entry.units), bps: entry.bps }));
  if (referral.referrer !== null && rest > 0n) entries.push({ recipient: referral.referrer, feeUsdc: formatUsdc(rest), bps: restBps });
  return entries.length > 0 ? entries : null;
}

/** What the settlement released on a fiat rail: the attestation's penalised release when penalties applied, else the whole intent. */
function releasedOf(context: PaymentContext): bigint {
  if ((context.penalties ?? []).length > 0 && context.paymentProof !== null) {
    return readAttestedRelease(context.paymentProof)?.releaseAmount ?? context.price.releasedUsdc;
  }
  return context.price.releasedUsdc;
}

/** The platform's fee the settlement paid. */
function platformFeeOf(context: PaymentContext): bigint {
  if (context.conversion) return context.settledFeeUsdc ?? 0n;
  return feesOf(releasedOf(context), context.fees).platformFeeUsdc;
}

export function referralFeesOf(context: PaymentContext, status: PaymentStatus): SettlementReferralFeeEntry[] | null {
  const referral = context.referral ?? null;
  if (status !== 'SETTLED' || referral === null) return null;
  return splitReferralFee(platformFeeOf(context), referral);
}
