/**
 * Payment rails a customer can pay an order over. The fiat rails are the payment
 * platforms the attestation service verifies (document 3): each rail is paid on one
 * platform, or, for Zelle, on the bank the customer picks (`paymentMethodId`). A
 * deposit accepts a platform by keccak256 of its id, which is also what the
 * attestation names as the payment's method, so the rail's platform is what the
 * quote, the intent and the proof all agree on. Crypto rails (a conversion provider)
 * are not built yet.
 */
export const FIAT_RAILS = ['venmo', 'cashapp', 'zelle', 'paypal', 'wise', 'revolut', 'monzo', 'chime'] as const;
export type FiatRail = (typeof FIAT_RAILS)[number];

/** The banks a Zelle payment can be sent from; document 1's `paymentMethodId` values. */
export const ZELLE_BANKS = ['zelle-chase', 'zelle-bofa', 'zelle-citi'] as const;

export function isFiatRail(rail: string): rail is FiatRail {
  return (FIAT_RAILS as readonly string[]).includes(rail);
}

/**
 * The platform a payment on `rail` is made and verified on: the rail itself, or the
 * Zelle bank picked (Chase when none was). Null when the pick does not belong to the rail.
 */
export function railPlatform(rail: FiatRail, paymentMethodId: string | null): string | null {
  if (rail !== 'zelle') return paymentMethodId === null ? rail : null;
  if (paymentMethodId === null) return ZELLE_BANKS[0];
  return (ZELLE_BANKS as readonly string[]).includes(paymentMethodId) ? paymentMethodId : null;
}

/**
 * The currencies each rail's platform sends, the first being its home currency: what a
 * quote defaults to when the order's own currency is not one of them.
 */
export const RAIL_CURRENCIES: Readonly<Record<FiatRail, readonly string[]>> = {
  venmo: ['USD'],
  cashapp: ['USD'],
  zelle: ['USD'],
  chime: ['USD'],
  paypal: ['USD', 'EUR', 'GBP'],
  wise: ['GBP', 'EUR', 'USD'],
  revolut: ['EUR', 'GBP', 'USD'],
  monzo: ['GBP'],
};

/** The currency a quote on `rail` is priced in: the one asked for, else the order's when the rail sends it, else the rail's home currency. */
export function railCurrency(rail: FiatRail, preferred: string | null): string {
  const currencies = RAIL_CURRENCIES[rail];
  return preferred !== null && currencies.includes(preferred) ? preferred : currencies[0]!;
}

/** The attestation service's action for a transfer on `platform` (`transfer_zelle_chase`). */
export function transferAction(platform: string): string {
  return `transfer_${platform.replaceAll('-', '_')}`;
}
