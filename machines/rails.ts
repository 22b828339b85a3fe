/**
 * Payment rails a customer can pay an order over. The fiat rails are the payment
 * platforms the attestation service verifies (document 3); crypto rails arrive with
 * the payment issue.
 */
export const FIAT_RAILS = ['venmo', 'cashapp', 'zelle', 'paypal', 'wise', 'revolut', 'monzo', 'chime'] as const;
export type FiatRail = (typeof FIAT_RAILS)[number];

export function isFiatRail(rail: string): rail is FiatRail {
  return (FIAT_RAILS as readonly string[]).includes(rail);
}
