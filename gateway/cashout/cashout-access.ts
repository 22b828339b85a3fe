/**
 * How the customer's checkout reaches a payout (document 2, Authentication 4, in its order):
 * the link token first (a wrong one and an unknown payout are the same 401, so a link tells
 * nothing of other payouts); for an action, the login token, then whether its customer is the
 * payout's; and an action on a payout that has ended is refused while reads stay open.
 */
import type { Context } from 'koa';
import type { PayoutKindView } from '../../actors/kinds/payout-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { PayoutStatus } from '../../machines/payout/payout-types.js';
import { payoutError, payoutViewOf } from '../payouts/payout-access.js';
import { bearerToken } from '../middleware/bearer-auth.js';
import type { PayoutLinks } from '../payouts/payout-links.js';
import type { LoginClaims, LoginTokens } from './login-tokens.js';

export interface CashoutAccessDependencies {
  system: ActorSystem;
  links: PayoutLinks;
  logins: LoginTokens;
}

/** A payout as the checkout sees it: created, its link checked. */
export type CheckoutPayout = PayoutKindView & { status: PayoutStatus; payout: NonNullable<PayoutKindView['payout']> };

const FINAL = new Set<PayoutStatus>(['SETTLED', 'CANCELLED', 'EXPIRED']);

/** The customer's refusals are the payouts' (payout-access.ts), in document 2's customer codes. */
export const cashoutError = payoutError;

/** The payout the link opens; 401 CASHOUT_TOKEN_INVALID for a missing or wrong token and for an unknown payout alike. */
export async function linkedPayout(deps: CashoutAccessDependencies, ctx: Context, payoutId: string): Promise<CheckoutPayout> {
  const token = ctx.get('x-cashout-token');
  const view = token ? await payoutViewOf(deps.system, payoutId) : null;
  if (!token || !view?.listed || view.status === null || view.payout === null || !(await deps.links.verify(payoutId, token)))
    throw cashoutError('CASHOUT_TOKEN_INVALID', 'This payout link is not valid: open the latest link from the e-mail or the merchant');
  return view as CheckoutPayout;
}

/** The payout and its signed-in customer, for an action; an ended payout refuses every action. */
export async function signedInPayout(
  deps: CashoutAccessDependencies,
  ctx: Context,
  payoutId: string,
): Promise<{ payout: CheckoutPayout; claims: LoginClaims }> {
  const payout = await linkedPayout(deps, ctx, payoutId);
  const claims = await signedIn(deps, ctx, payout);
  if (FINAL.has(payout.status))
    throw cashoutError('CASHOUT_LINK_EXPIRED', `This payout is ${payout.status}: it can be read, not acted on`, { status: payout.status });
  return { payout, claims };
}

async function signedIn(deps: CashoutAccessDependencies, ctx: Context, payout: CheckoutPayout): Promise<LoginClaims> {
  const token = bearerToken(ctx);
  if (!token) throw cashoutError('CASHOUT_LOGIN_REQUIRED', 'Sign in first: send Authorization: Bearer <loginToken>');
  const claims = await deps.logins.verify(token);
  if (!claims) throw cashoutError('CASHOUT_LOGIN_INVALID', 'This sign-in has expired or is not valid: sign in again');
  if (claims.account !== payout.walletUserId) throw cashoutError('CASHOUT_PLAYER_MISMATCH', 'You are signed in as someone else than this payout’s customer');
  return claims;
}
