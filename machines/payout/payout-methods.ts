/**
 * How a payout customer is paid (document 2, Currencies and Rails): a fiat rail with the
 * customer's handle on it and a currency the rail pays in, or a crypto destination. What each
 * fiat rail needs before the payout is READY: Venmo, Cash App and PayPal connect the account
 * (or the customer skips connecting); Zelle, Revolut and Chime need only the handle.
 */
import { PAYEE_IDENTIFIERS, payeeIdAs, type PayeeIdentifierKind } from '../maker/payee-ids.js';
import type { PayoutCryptoRail, PayoutFiatRail } from './payout-rails.js';

export const PAYOUT_CURRENCIES = ['USD', 'EUR', 'GBP', 'AUD', 'CAD', 'NZD', 'SGD', 'CHF', 'CNY', 'MXN', 'TRY', 'ZAR'] as const;
export type PayoutCurrency = (typeof PAYOUT_CURRENCIES)[number];

/** Document 2's currency table, by rail, in the document's currency order. */
export const RAIL_CURRENCIES: Readonly<Record<PayoutFiatRail, readonly PayoutCurrency[]>> = {
  venmo: ['USD'],
  cashapp: ['USD'],
  zelle: ['USD'],
  chime: ['USD'],
  paypal: ['USD', 'EUR', 'GBP', 'AUD', 'CAD', 'NZD', 'SGD'],
  revolut: PAYOUT_CURRENCIES,
};

/** Where the handle goes on each rail: the payee id a buyer pays and a proof names, normalised as makers' payees are. */
const HANDLE_KINDS: Readonly<Record<PayoutFiatRail, readonly PayeeIdentifierKind[]>> = {
  venmo: ['venmoUserId'],
  cashapp: ['cashtag'],
  chime: ['chimeSign'],
  revolut: ['revtag'],
  paypal: ['email'],
  zelle: ['email', 'usPhone'],
};

/** The platform a listing on each rail names in the escrow (its payment method's hash is keccak256 of it). */
export const RAIL_PLATFORMS: Readonly<Record<PayoutFiatRail, string>> = {
  venmo: 'venmo',
  cashapp: 'cashapp',
  chime: 'chime',
  revolut: 'revolut',
  paypal: 'paypal',
  zelle: 'zelle',
};

/** Rails whose account the customer connects (or skips connecting) before the payout is READY. */
const CONNECTED_RAILS: ReadonlySet<PayoutFiatRail> = new Set(['venmo', 'cashapp', 'paypal']);

export function connectsAccount(rail: string): boolean {
  return CONNECTED_RAILS.has(rail as PayoutFiatRail);
}

export type FiatConnection = 'NOT_NEEDED' | 'PENDING' | 'SKIPPED' | 'CONNECTED';

export interface CryptoDestination {
  chainId: number;
  tokenAddress: string;
  symbol: string;
  decimals: number;
  /** payoutTransfer.address's form. */
  address: string;
  /** settlement.sentTo's form. */
  sentTo: string;
}

export type PayoutMethod =
  | {
      kind: 'FIAT';
      rail: PayoutFiatRail;
      /** As the customer wrote it, for the page. */
      handle: string;
      /** The normalised payee id the listing names. */
      payeeId: string;
      currency: PayoutCurrency;
      /** PayPal's registered e-mail, normalised. */
      paypalEmail: string | null;
      connection: FiatConnection;
      /** CONNECTED: until when the attestation of the account holds (after it, confirming needs a new connection). */
      connectedUntil?: string;
    }
  | { kind: 'CRYPTO'; rail: PayoutCryptoRail; destination: CryptoDestination };

/** A fiat method as saved: its connection starts pending on the rails that connect. */
export function fiatConnectionOf(rail: PayoutFiatRail): FiatConnection {
  return CONNECTED_RAILS.has(rail) ? 'PENDING' : 'NOT_NEEDED';
}

/** Whether the payout may be READY with this method. */
export function methodReady(method: PayoutMethod | null): boolean {
  if (!method) return false;
  return method.kind === 'CRYPTO' || method.connection !== 'PENDING';
}

/** The normalised payee id of `handle` on `rail`, or null when it does not fit the platform's rules. */
export function payeeIdOn(rail: PayoutFiatRail, handle: string): string | null {
  for (const kind of HANDLE_KINDS[rail]) {
    const id = payeeIdAs(kind, handle);
    if (id !== null) return id;
  }
  return null;
}

/** What the handle on `rail` must be, for the customer's error message. */
export function handleRuleOf(rail: PayoutFiatRail): string {
  return HANDLE_KINDS[rail].map((kind) => PAYEE_IDENTIFIERS[kind].rule).join(', or ');
}

/** How the page shows a method (document 2's PayoutMethodView). */
export function methodView(method: PayoutMethod) {
  return method.kind === 'FIAT'
    ? { rail: method.rail, handle: method.handle, currency: method.currency }
    : {
        rail: method.rail,
        destination: {
          chainId: method.destination.chainId,
          tokenAddress: method.destination.tokenAddress,
          symbol: method.destination.symbol,
          decimals: method.destination.decimals,
          address: method.destination.address,
        },
      };
}
