/**
 * ReferralSplitConfig (document 1 names it and leaves its shape to us): how the platform's fee
 * on a payment, which the chain pays as the intent's referrer fee, is shared with the merchant's
 * referral partners. Each recipient takes `bps` of that fee (basis points of it, not of the
 * payment); what the shares leave stays the platform's. The merchant's configuration holds one
 * for fiat rails and one for crypto rails; an order keeps the ones in force when it was created.
 */
export interface ReferralSplitRecipient {
  /** An EVM address. */
  recipient: string;
  /** Its share of the platform's fee, in basis points. */
  bps: number;
}

export interface ReferralSplitConfig {
  recipients: ReferralSplitRecipient[];
}

export const MAX_REFERRAL_RECIPIENTS = 5;

/** Why a split cannot be kept, or null when it can: shares that are whole basis points above zero, summing to at most all of the fee, each recipient once. */
export function referralSplitProblem(config: ReferralSplitConfig): string | null {
  const { recipients } = config;
  if (recipients.length === 0 || recipients.length > MAX_REFERRAL_RECIPIENTS) return `name 1 to ${MAX_REFERRAL_RECIPIENTS} recipients`;
  if (recipients.some((entry) => !Number.isInteger(entry.bps) || entry.bps <= 0)) return 'each share is a whole number of basis points above zero';
  if (recipients.reduce((sum, entry) => sum + entry.bps, 0) > 10_000) return 'the shares add up to more than the whole fee (10000 basis points)';
  const addresses = recipients.map((entry) => entry.recipient.toLowerCase());
  if (new Set(addresses).size !== addresses.length) return 'each recipient is named once';
  return null;
}
