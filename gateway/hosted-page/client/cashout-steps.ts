/**
 * Which screen the payout checkout shows, and how it names where the payout stands: one
 * function of the checkout state and of what only the page knows (whether the customer is
 * signed in, whether they opened a form: changing how they are paid, signing in on a listing,
 * sending its rest). The state's `actions` decide what may be done, so the page never offers
 * what the API would refuse; a bridge with the provider, or a listing's way out on its way,
 * leaves only following it. And the few sums and names the screens share: what is unpaid, a
 * network or token by the catalog's name.
 */
import { DESTINATION_NETWORKS, isBaseUsdc } from '../../../machines/payout/destination-catalog.js';
import { connectsAccount } from '../../../machines/payout/payout-methods.js';
import type { CashoutAction, CashoutState, CryptoMethodView, FiatMethodView, PayoutBridgeView } from './cashout-api.js';

export type CashoutStep =
  | 'awaiting-funding'
  | 'sign-in'
  | 'choose-method'
  | 'connect'
  | 'confirm'
  | 'listing-pending'
  | 'bridging'
  | 'listing'
  | 'exit-pending'
  | 'relist-pending'
  | 'send-rest'
  | 'send-rest-confirm'
  | 'paying'
  | 'settled'
  | 'cancelled'
  | 'expired';

export const FINAL_STEPS: ReadonlySet<CashoutStep> = new Set(['settled', 'cancelled', 'expired']);

/** What only the page knows: whether the customer is signed in, and which of the listing's or method's forms they opened. */
export interface PageFlags {
  signedIn: boolean;
  /** They asked to change a saved method. */
  changingMethod: boolean;
  /** On a listing they asked to sign in, to take it back or send the rest. */
  signingIn?: boolean;
  /** On a partly paid listing they are sending the rest to an address: choosing it (`form`), or looking at its price (`priced`). */
  sendingRest?: 'form' | 'priced' | null;
  /** This tab asked to list what is left again: the way out on its way is that, not the listing being taken back. */
  relisting?: boolean;
  /** On a ready Venmo, Cash App or PayPal method, the customer asked to connect its account (`asked`), or confirming said the connection lapsed (`lapsed`). */
  connecting?: 'asked' | 'lapsed' | null;
}

export function stepOf(state: CashoutState, page: PageFlags): CashoutStep {
  switch (state.payout.status) {
    case 'AWAITING_FUNDING':
      return 'awaiting-funding';
    case 'PAYING':
      return 'paying';
    case 'SETTLED':
      return 'settled';
    case 'CANCELLED':
      return 'cancelled';
    case 'EXPIRED':
      return 'expired';
  }
  const offers = (action: CashoutAction) => state.actions.includes(action);
  // A bridge with the provider, of the whole payout (READY) or of a listing's rest (LISTING): nothing to do but follow it.
  if (bridgeLive(state)) return 'bridging';
  if (state.payout.status === 'LISTING') {
    // A listing always offers taking it back, unless a way out of it is already on its way.
    if (!offers('WITHDRAW') && !offers('SEND_TO_ADDRESS')) return page.relisting ? 'relist-pending' : 'exit-pending';
    if (!page.signedIn) return page.signingIn ? 'sign-in' : 'listing';
    if (offers('SEND_TO_ADDRESS') && page.sendingRest) return page.sendingRest === 'priced' ? 'send-rest-confirm' : 'send-rest';
    return 'listing';
  }
  // FUNDED or READY offering nothing but signing in: the confirmed listing or send is on its way.
  if (!offers('SAVE_METHOD') && !offers('SKIP_CONNECT') && !offers('CONFIRM')) return 'listing-pending';
  if (!page.signedIn) return 'sign-in';
  if (state.method === null || (page.changingMethod && offers('SAVE_METHOD'))) return 'choose-method';
  if (offers('SKIP_CONNECT')) return 'connect';
  // A ready method's account is connected where its method may still change: after skipping, or once the connection lapsed.
  if (page.connecting && offers('SAVE_METHOD') && connectableMethod(state)) return 'connect';
  if (offers('CONFIRM')) return 'confirm';
  // FUNDED with a method (a listing taken back) is one to choose again.
  return 'choose-method';
}

/** Whether the method's account is connected at `nowMs`: connected, and its attestation not lapsed. */
export function connectedNow(state: CashoutState, nowMs: number): boolean {
  const connection = state.connection;
  return connection?.status === 'CONNECTED' && connection.connectedUntil !== null && Date.parse(connection.connectedUntil) > nowMs;
}

/** The saved Venmo, Cash App or PayPal method, whose account the customer may connect; null for any other. */
export function connectableMethod(state: CashoutState): FiatMethodView | null {
  const method = state.method;
  return method && 'handle' in method && connectsAccount(method.rail) ? method : null;
}

/** What the payout is for: the USDC deposited once funded, the amount asked for before. */
export function payoutAmount(state: CashoutState): string {
  return state.payout.depositAmount ?? state.payout.payout.amount;
}

/** What is left to pay, as the API counts it (less what buyers paid and what bridge refunds came back short). */
export function unpaidAmount(state: CashoutState): string {
  return state.unpaidAmount;
}

/** A crypto destination is sent to; a fiat method is listed for buyers. */
export function sendsToAddress(state: CashoutState): boolean {
  return cryptoMethodOf(state) !== null;
}

export function cryptoMethodOf(state: CashoutState): CryptoMethodView | null {
  return state.method !== null && 'destination' in state.method ? state.method : null;
}

/** A crypto destination other than USDC on Base: the conversion provider delivers it, at a price it quotes. */
export function isBridged(method: { rail: string; destination: { tokenAddress: string } }): boolean {
  return !isBaseUsdc(method.rail, method.destination.tokenAddress);
}

/** The newest bridge while it is with the provider (QUOTED or BRIDGING); null otherwise. */
export function bridgeLive(state: CashoutState): PayoutBridgeView | null {
  const bridge = state.payoutBridge;
  return bridge && (bridge.status === 'QUOTED' || bridge.status === 'BRIDGING') ? bridge : null;
}

/** A network by its chain id, as the customer knows it: "Arbitrum", "Base". */
export function networkName(chainId: number): string {
  return DESTINATION_NETWORKS.find((network) => network.chainId === chainId)?.name ?? `chain ${chainId}`;
}

/** A token by its network and address, as the catalog writes it: "USDT". */
export function tokenSymbol(chainId: number, tokenAddress: string): string | null {
  const network = DESTINATION_NETWORKS.find((candidate) => candidate.chainId === chainId);
  return network?.tokens.find((token) => token.address.toLowerCase() === tokenAddress.toLowerCase())?.symbol ?? null;
}

export function isZero(decimal: string): boolean {
  return /^0*(\.0*)?$/.test(decimal);
}

/** Where the payout stands, in a few words. */
export function statusWords(state: CashoutState, step: CashoutStep): string {
  const merchant = state.merchant.name ?? 'the sender';
  const bridge = state.payoutBridge;
  switch (step) {
    case 'awaiting-funding':
      return `Waiting for ${merchant} to fund it`;
    case 'listing-pending':
      return sendsToAddress(state) ? 'Being sent to your address' : 'Being listed for buyers';
    case 'bridging':
      return `On its way to your address as ${bridge?.destination.symbol ?? 'crypto'}`;
    case 'exit-pending':
      return sendsToAddress(state) ? 'The rest is being sent to your address' : 'Being taken back from buyers';
    case 'relist-pending':
      return 'What is left is being listed again';
    case 'listing':
    case 'send-rest':
    case 'send-rest-confirm':
      return isZero(state.payout.paidAmount) ? 'Listed: waiting for a buyer' : 'Partly paid: waiting for the next buyer';
    case 'paying':
      return 'A buyer is paying you';
    case 'settled':
      return 'Paid';
    case 'cancelled':
      return 'Cancelled';
    case 'expired':
      return 'Expired';
    default:
      if (state.payout.status === 'LISTING') return isZero(state.payout.paidAmount) ? 'Listed: waiting for a buyer' : 'Partly paid: waiting for the next buyer';
      if (state.payout.status !== 'READY') return 'Funded: choose how to be paid';
      return sendsToAddress(state) ? 'Ready to send to your address' : 'Ready to list for buyers';
  }
}
