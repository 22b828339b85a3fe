/**
 * Which screen the payout checkout shows, and how it names where the payout stands: one
 * function of the checkout state and of what only the page knows (whether the customer is
 * signed in, whether they asked to change how they are paid). The state's `actions` decide
 * what may be done, so the page never offers what the API would refuse.
 */
import type { CashoutAction, CashoutState } from './cashout-api.js';

export type CashoutStep =
  | 'awaiting-funding'
  | 'sign-in'
  | 'choose-method'
  | 'connect'
  | 'confirm'
  | 'method-saved'
  | 'listing-pending'
  | 'listing'
  | 'paying'
  | 'settled'
  | 'cancelled'
  | 'expired';

export const FINAL_STEPS: ReadonlySet<CashoutStep> = new Set(['settled', 'cancelled', 'expired']);

export function stepOf(state: CashoutState, page: { signedIn: boolean; changingMethod: boolean }): CashoutStep {
  switch (state.payout.status) {
    case 'AWAITING_FUNDING':
      return 'awaiting-funding';
    case 'LISTING':
      return 'listing';
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
  // FUNDED or READY offering nothing but signing in: the confirmed listing is on its way.
  if (!offers('SAVE_METHOD') && !offers('SKIP_CONNECT') && !offers('CONFIRM')) return 'listing-pending';
  if (!page.signedIn) return 'sign-in';
  if (state.method === null || (page.changingMethod && offers('SAVE_METHOD'))) return 'choose-method';
  if (offers('SKIP_CONNECT')) return 'connect';
  if (offers('CONFIRM')) return 'confirm';
  // READY with nothing to confirm is a saved crypto destination; FUNDED with a method is one to choose again.
  return state.payout.status === 'READY' ? 'method-saved' : 'choose-method';
}

/** What the payout is for: the USDC deposited once funded, the amount asked for before. */
export function payoutAmount(state: CashoutState): string {
  return state.payout.depositAmount ?? state.payout.payout.amount;
}

/** A crypto destination is sent to; a fiat method is listed for buyers. */
export function sendsToAddress(state: CashoutState): boolean {
  return state.method !== null && 'destination' in state.method;
}

export function isZero(decimal: string): boolean {
  return /^0*(\.0*)?$/.test(decimal);
}

/** Where the payout stands, in a few words. */
export function statusWords(state: CashoutState, step: CashoutStep): string {
  const merchant = state.merchant.name ?? 'the sender';
  switch (step) {
    case 'awaiting-funding':
      return `Waiting for ${merchant} to fund it`;
    case 'listing-pending':
      return sendsToAddress(state) ? 'Being sent to your address' : 'Being listed for buyers';
    case 'listing':
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
      if (state.payout.status !== 'READY') return 'Funded: choose how to be paid';
      return sendsToAddress(state) ? 'Ready to send to your address' : 'Ready to list for buyers';
  }
}
