/**
 * What the customer may do on a payout's checkout now (docs/payout-checkout.md, "Actions"):
 * the page offers exactly these, and every action not among them is refused with the payout's
 * status and this list (document 2: customer 409s carry { status, actions }).
 */
import { relistable, unpaidUsdc } from './listing-state.js';
import { methodReady } from './payout-methods.js';
import { isPayoutCryptoRail } from './payout-rails.js';
import type { PayoutContext, PayoutStatus } from './payout-types.js';

export const CASHOUT_ACTIONS = ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT', 'CONFIRM', 'RELIST', 'WITHDRAW', 'SEND_TO_ADDRESS'] as const;
export type CashoutAction = (typeof CASHOUT_ACTIONS)[number];

type ActionContext = Pick<PayoutContext, 'method' | 'depositAmount' | 'paidUsdc' | 'refundFeeUsdc' | 'terms' | 'listing' | 'listingMinUsdc'>;

/**
 * `busy`: a listing, a send, a withdrawal or a bridge is on its way (nothing but signing in is
 * offered). CONFIRM lists a ready fiat method, or sends to a crypto destination (straight in
 * USDC on Base, else through the conversion provider). On a listing, WITHDRAW takes it back so
 * the customer can choose again, and after a partial payment SEND_TO_ADDRESS sends the listed
 * remainder to an address on a network the payout offers; RELIST sets the listing's range to
 * what is left once buyers paid part of it.
 */
export function cashoutActions(context: ActionContext, status: PayoutStatus, busy: boolean): CashoutAction[] {
  if (status === 'FUNDED') {
    const pending = context.method?.kind === 'FIAT' && context.method.connection === 'PENDING';
    return pending ? ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] : ['SIGN_IN', 'SAVE_METHOD'];
  }
  if (busy) return status === 'SETTLED' || status === 'CANCELLED' || status === 'EXPIRED' ? [] : ['SIGN_IN'];
  if (status === 'READY') {
    const confirmable = unpaidUsdc(context) > 0n && methodReady(context.method);
    return confirmable ? ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] : ['SIGN_IN', 'SAVE_METHOD'];
  }
  if (status === 'LISTING') {
    const sendable = context.paidUsdc > 0n && unpaidUsdc(context) > 0n && context.terms.rails.some(isPayoutCryptoRail);
    return ['SIGN_IN', ...(relistable(context) ? (['RELIST'] as const) : []), 'WITHDRAW', ...(sendable ? (['SEND_TO_ADDRESS'] as const) : [])];
  }
  if (status === 'PAYING') return ['SIGN_IN'];
  return [];
}
