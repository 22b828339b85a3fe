/**
 * Document 2's payout methods: the fiat rails a buyer pays the customer on, and one crypto
 * rail per network the customer can be sent USDC (or a token bought with it) on. Provider
 * brands are neutral as the document writes them: `routea_<chainId>` and `routeb_133701`.
 * These are not document 1's checkout rails (`relay_<chainId>` are what a customer pays
 * an order with); the two lists share names for fiat only.
 */
export const PAYOUT_FIAT_RAILS = ['venmo', 'cashapp', 'paypal', 'zelle', 'revolut', 'chime'] as const;
export type PayoutFiatRail = (typeof PAYOUT_FIAT_RAILS)[number];

export const PAYOUT_CRYPTO_RAILS = [
  'routea_1',
  'routea_10',
  'routea_56',
  'routea_137',
  'routea_480',
  'routea_999',
  'routea_5042',
  'routea_8453',
  'routea_42161',
  'routea_8253038',
  'routea_728126428',
  'routea_792703809',
  'routeb_133701',
] as const;
export type PayoutCryptoRail = (typeof PAYOUT_CRYPTO_RAILS)[number];

/** PayoutRail: the fiat rails followed by the crypto rails, the order every list of rails is normalised to. */
export const PAYOUT_RAILS = [...PAYOUT_FIAT_RAILS, ...PAYOUT_CRYPTO_RAILS] as const;
export type PayoutRail = (typeof PAYOUT_RAILS)[number];

/** The retired catch-all value: the customer sees every crypto rail as one Crypto option, but requests name networks. */
export const RETIRED_CRYPTO_RAIL = 'crypto';

const RAIL_ORDER: ReadonlyMap<string, number> = new Map(PAYOUT_RAILS.map((rail, index) => [rail, index]));

export function isPayoutRail(value: string): value is PayoutRail {
  return RAIL_ORDER.has(value);
}

export function isPayoutCryptoRail(rail: string): rail is PayoutCryptoRail {
  return (PAYOUT_CRYPTO_RAILS as readonly string[]).includes(rail);
}

/** Rails in PayoutRail order, so two requests naming the same rails in another order are the same request. */
export function normaliseRails(rails: readonly PayoutRail[]): PayoutRail[] {
  return [...rails].sort((a, b) => RAIL_ORDER.get(a)! - RAIL_ORDER.get(b)!);
}
