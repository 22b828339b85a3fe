/**
 * What the customer may do on a payout's checkout now (docs/payout-checkout.md, "Actions"):
 * the page offers exactly these, and every action not among them is refused with the payout's
 * status and this list (document 2: customer 409s carry { status, actions }).
 */
import { unpaidUsdc } from './listing-state.js';
import { methodReady } from './payout-methods.js';
import type { PayoutContext, PayoutStatus } from './payout-types.js';

export const CASHOUT_ACTIONS = ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT', 'CONFIRM', 'RELIST', 'WITHDRAW', 'SEND_TO_ADDRESS'] as const;
export type CashoutAction = (typeof CASHOUT_ACTIONS)[number];

/** `phase` is the top state with READY's inside: a listing on its way is READY but offers nothing. */
export function cashoutActions(
  context: Pick<PayoutContext, 'method' | 'depositAmount' | 'paidUsdc'>,
  status: PayoutStatus,
  listingPending: boolean,
): CashoutAction[] {
  if (status === 'FUNDED') {
    const pending = context.method?.kind === 'FIAT' && context.method.connection === 'PENDING';
    return pending ? ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] : ['SIGN_IN', 'SAVE_METHOD'];
  }
  if (status === 'READY') {
    if (listingPending) return ['SIGN_IN'];
    const confirmable = context.method?.kind === 'FIAT' && methodReady(context.method) && unpaidUsdc(context) > 0n;
    return confirmable ? ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] : ['SIGN_IN', 'SAVE_METHOD'];
  }
  if (status === 'LISTING' || status === 'PAYING') return ['SIGN_IN'];
  return [];
}
