/**
 * Payment rails a customer can pay an order over. The fiat rails are the payment
 * platforms the attestation service verifies (document 3): each rail is paid on one
 * platform, or, for Zelle, on the bank the customer picks (`paymentMethodId`). A
 * deposit accepts a platform by keccak256 of its id, which is also what the
 * attestation names as the payment's method, so the rail's platform is what the
 * quote, the intent and the proof all agree on.
 *
 * Crypto rails (`relay_<chainId>`, Peer's naming) are paid in a token on another chain
 * through a conversion provider, which delivers USDC to the order's destination: no
 * maker deposit and no intent are involved (docs/payments.md, Crypto rails).
 */
export const FIAT_RAILS = ['venmo', 'cashapp', 'zelle', 'paypal', 'wise', 'revolut', 'monzo', 'chime'] as const;
export type FiatRail = (typeof FIAT_RAILS)[number];

/**
 * The rails whose platform the attestation service's seller path reads (document 1's
 * fulfill-sar: Venmo, Cash App and Wise): a maker's kept session there reads payments
 * they received, with the payer's memo. The enclave's SELLER_PLATFORMS is held to this
 * list by a test; each rail is its platform's id. PayPal stays off it: document 1 refuses
 * it (PAYPAL_NOT_SUPPORTED), and our model of its activity read shows the receiver neither
 * themselves as recipient nor the payer's memo.
 */
export const SELLER_RELEASE_RAILS = ['venmo', 'cashapp', 'wise'] as const;
export type SellerReleaseRail = (typeof SELLER_RELEASE_RAILS)[number];

/** Whether a payment on `rail` can be attested from the recipient's side, when the recipient keeps a credential. */
export function isSellerReleaseRail(rail: string): rail is SellerReleaseRail {
  return (SELLER_RELEASE_RAILS as readonly string[]).includes(rail);
}

/** The banks a Zelle payment can be sent from; document 1's `paymentMethodId` values. */
export const ZELLE_BANKS = ['zelle-chase', 'zelle-bofa', 'zelle-citi'] as const;

/** The origin chains a crypto rail can name: Peer's supported Relay chains (`@zkp2p/pay-shared`). */
export const CRYPTO_RAILS = [
  'relay_1',
  'relay_10',
  'relay_56',
  'relay_137',
  'relay_480',
  'relay_999',
  'relay_8453',
  'relay_42161',
  'relay_8253038',
  'relay_728126428',
  'relay_792703809',
] as const;
export type CryptoRail = (typeof CRYPTO_RAILS)[number];

/** Every rail a merchant can enable. */
export const ALL_RAILS = [...FIAT_RAILS, ...CRYPTO_RAILS] as const;

export function isCryptoRail(rail: string): rail is CryptoRail {
  return (CRYPTO_RAILS as readonly string[]).includes(rail);
}

/** The chain a crypto rail's customer pays on: `relay_42161` is Arbitrum One's 42161. */
export function cryptoRailChainId(rail: CryptoRail): number {
  return Number(rail.slice('relay_'.length));
}

/** Document 1: about 6 hours on crypto rails (a fiat attempt's window is the node's PAYMENT_WINDOW_MS, 1 hour by default). */
export const CRYPTO_WINDOW_MS = 6 * 60 * 60 * 1000;

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
