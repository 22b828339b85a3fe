/**
 * What the customer may do on a payout's checkout now (docs/payout-checkout.md, "Actions"):
 * the page offers exactly these, and every action not among them is refused with the payout's
 * status and this list (document 2: customer 409s carry { status, actions }).
 */
import { unpaidUsdc } from './listing-state.js';
import { isBaseUsdc } from './destination-catalog.js';
import { methodReady } from './payout-methods.js';
import type { PayoutContext, PayoutStatus } from './payout-types.js';

export const CASHOUT_ACTIONS = ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT', 'CONFIRM', 'RELIST', 'WITHDRAW', 'SEND_TO_ADDRESS'] as const;
export type CashoutAction = (typeof CASHOUT_ACTIONS)[number];

/**
 * `busy`: a listing or a send is on its way (READY, offering nothing). CONFIRM lists a ready
 * fiat method, or sends USDC on Base straight to the customer's address; a crypto method that
 * needs the conversion provider is not confirmable yet (issue 39).
 */
export function cashoutActions(context: Pick<PayoutContext, 'method' | 'depositAmount' | 'paidUsdc'>, status: PayoutStatus, busy: boolean): CashoutAction[] {
  if (status === 'FUNDED') {
    const pending = context.method?.kind === 'FIAT' && context.method.connection === 'PENDING';
    return pending ? ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] : ['SIGN_IN', 'SAVE_METHOD'];
  }
  if (status === 'READY') {
    if (busy) return ['SIGN_IN'];
    const method = context.method;
    const confirmable =
      unpaidUsdc(context) > 0n &&
      ((method?.kind === 'FIAT' && methodReady(method)) || (method?.kind === 'CRYPTO' && isBaseUsdc(method.rail, method.destination.tokenAddress)));
    return confirmable ? ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'] : ['SIGN_IN', 'SAVE_METHOD'];
  }
  if (status === 'LISTING' || status === 'PAYING') return ['SIGN_IN'];
  return [];
}
