/**
 * The dashboard's guards (docs/dashboard-auth.md). `sessionGuard` admits a team member's
 * session only: an X-API-Key is refused outright (403 API_KEY_NOT_ALLOWED), whatever it is.
 * `merchantGuard` admits the API key (when the header is sent) or else a session. Both leave
 * `ctx.state.account` as the apiKey guard does (the session's chosen environment) and
 * `ctx.state.principal` saying who.
 *
 * A session is checked in this order, so that a refused call changes nothing: the cookie
 * names an open session (its hash compared in constant time), it is neither idle 30 minutes
 * nor 12 hours old on the node's clock, its member is still on the team (the role is read
 * from the team on every request, so a change of role applies at once), and a call that
 * changes something carries the session's CSRF token. Only then is the session marked seen,
 * at most once a minute: the idle deadline is that precise and no more, to spare a write per
 * request.
 */
import type { Middleware } from 'koa';
import { dashboardSessionKind } from '../../actors/kinds/dashboard-session-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { sessionDeadline } from '../../machines/dashboard-session/index.js';
import { sameHash } from '../auth/secret-hash.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount, MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { GatewayState } from '../state.js';
import type { SessionPrincipal } from './principal.js';
import { CSRF_HEADER, type CsrfTokens, hashSessionToken, looksLikeSessionToken, SESSION_COOKIE, sessionIdOf } from './session-tokens.js';

/** A session is marked seen at most this often. */
export const TOUCH_EVERY_MS = 60_000;

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionGuardDependencies {
  system: ActorSystem;
  accounts: MerchantAccounts;
  csrf: CsrfTokens;
  now(): string;
}

export interface OpenSession {
  principal: SessionPrincipal;
  account: MerchantAccount;
  business: MerchantAccount;
}

/** The session the request's cookie opens, or the refusal; CSRF checked for a method that changes something. */
export async function openSession(deps: SessionGuardDependencies, ctx: Parameters<Middleware<GatewayState>>[0]): Promise<OpenSession> {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) throw new ApiError(401, 'Missing dashboard session', 'SESSION_REQUIRED');
  const sessionId = looksLikeSessionToken(token) ? sessionIdOf(token) : null;
  const doc = sessionId ? await deps.system.views(dashboardSessionKind).findOne({ _id: sessionId }, { projection: { view: 1 } }) : null;
  const session = doc?.view;
  if (!doc || !session || !sameHash(session.tokenHash, hashSessionToken(token)) || !session.open) {
    throw new ApiError(401, 'Invalid dashboard session', 'SESSION_INVALID');
  }
  const at = deps.now();
  if (Date.parse(at) >= sessionDeadline(session)) throw new ApiError(401, 'Dashboard session expired', 'SESSION_EXPIRED');
  const business = await deps.accounts.byId(session.merchantId);
  const member = business?.profile.merchantUsers.find((user) => user.userId === session.userId);
  if (!business || !member) throw new ApiError(401, 'Invalid dashboard session', 'SESSION_INVALID');
  const account = session.environment === 'LIVE' ? business : await deps.accounts.byId(business.twinId);
  if (!account) throw new ApiError(401, 'Invalid dashboard session', 'SESSION_INVALID');
  if (!SAFE_METHODS.has(ctx.method)) {
    const sent = ctx.get(CSRF_HEADER);
    if (!sent) throw new ApiError(403, `Missing ${CSRF_HEADER} header`, 'CSRF_TOKEN_MISSING');
    if (!deps.csrf.matches(doc._id, sent)) throw new ApiError(403, `Wrong ${CSRF_HEADER} header`, 'CSRF_TOKEN_INVALID');
  }
  if (Date.parse(at) - Date.parse(session.lastSeenAt) >= TOUCH_EVERY_MS) await deps.system.ask(dashboardSessionKind, doc._id, { type: 'TOUCH', at });
  return {
    principal: { kind: 'session', userId: member.userId, email: member.email, role: member.role, sessionId: doc._id, businessId: business.merchantId },
    account,
    business,
  };
}

function admit(ctx: Parameters<Middleware<GatewayState>>[0], opened: OpenSession): void {
  ctx.state.account = opened.account;
  ctx.state.principal = opened.principal;
  ctx.state.addLogFields({ merchantId: opened.account.merchantId, dashboardUser: opened.principal.userId });
}

export function sessionGuard(deps: SessionGuardDependencies): Middleware<GatewayState> {
  return async (ctx, next) => {
    if (ctx.get('x-api-key')) throw new ApiError(403, 'Not available to an API key: sign in to the dashboard', 'API_KEY_NOT_ALLOWED');
    admit(ctx, await openSession(deps, ctx));
    await next();
  };
}

/** The apiKey guard with the principal it admits: `{ kind: 'apiKey' }` beside the account it sets. */
export function withApiKeyPrincipal(apiKey: Middleware<GatewayState>): Middleware<GatewayState> {
  return (ctx, next) =>
    apiKey(ctx, async () => {
      ctx.state.principal = { kind: 'apiKey' };
      await next();
    });
}

/** The API key when X-API-Key is sent (through `apiKey`, the apiKey guard), else a session; neither: the apiKey guard's 401. */
export function merchantGuard(deps: SessionGuardDependencies, apiKey: Middleware<GatewayState>): Middleware<GatewayState> {
  return async (ctx, next) => {
    if (ctx.get('x-api-key') || !ctx.cookies.get(SESSION_COOKIE)) return apiKey(ctx, next);
    admit(ctx, await openSession(deps, ctx));
    await next();
  };
}
