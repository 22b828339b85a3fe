/**
 * The attestation service's penalty rates and exchange rates: its authority, set by its
 * deployment (ENCLAVE_PENALTIES), never by a caller. It applies them while it verifies a
 * payment and signs what it applied into the attestation's data (machines/payment/attestation-abi.ts),
 * so the node reads the rates the release was priced with rather than assuming any.
 *
 * A payment in another currency than the intent's is converted at the service's rate for
 * the pair, when it has one, and charged CROSS_CURRENCY; without a rate it is refused
 * (CURRENCY_MISMATCH), as before penalties. A deposit with dispute protection is charged
 * PURCHASE_PROTECTION when its rate is above zero.
 */
import { chainPenalties, convertFiat, type PenaltyKind, type PenaltyTerm } from '../../machines/payment/penalties.js';

export interface PenaltyPolicy {
  crossCurrencyBps: number;
  purchaseProtectionBps: number;
  /** `FROM/TO` (ISO 4217 codes) to TO's units per FROM unit, 6 decimals: `USD/EUR` 920000 is 0.92 EUR per USD. */
  fxRates: Readonly<Record<string, bigint>>;
}

/** No penalty and no conversion: a payment in another currency is refused, and protection costs nothing. */
export const NO_PENALTIES: PenaltyPolicy = { crossCurrencyBps: 0, purchaseProtectionBps: 0, fxRates: {} };

/** The payment's amount in the intent's currency, or null when the service has no rate for the pair. */
export function convertedAmount(policy: PenaltyPolicy, amountCents: bigint, from: string, to: string): bigint | null {
  if (from === to) return amountCents;
  const rate = policy.fxRates[`${from}/${to}`];
  return rate === undefined ? null : convertFiat(amountCents, rate);
}

/** The penalties on a payment worth `amountCents` in the intent's currency, in document 1's order. */
export function penaltiesFor(policy: PenaltyPolicy, amountCents: bigint, converted: boolean, disputeProtection: boolean): PenaltyTerm[] {
  const steps: { kind: PenaltyKind; penaltyBps: number }[] = [];
  // The conversion itself is shown even at a zero rate: it is what the payment was credited as.
  if (converted) steps.push({ kind: 'CROSS_CURRENCY', penaltyBps: policy.crossCurrencyBps });
  if (disputeProtection && policy.purchaseProtectionBps > 0) steps.push({ kind: 'PURCHASE_PROTECTION', penaltyBps: policy.purchaseProtectionBps });
  return chainPenalties(amountCents, steps);
}
