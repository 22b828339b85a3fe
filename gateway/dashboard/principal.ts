/**
 * Who a merchant request acts for (docs/dashboard-auth.md): the API key, or a team member's
 * dashboard session. The guards put it in `ctx.state.principal` beside the account; routes
 * that care about roles ask `requireRole`.
 */
import type { Middleware } from 'koa';
import type { MemberRole } from '../../machines/merchant/index.js';
import { ApiError } from '../envelope.js';

export type Principal =
  | { kind: 'apiKey' }
  | {
      kind: 'session';
      userId: string;
      email: string;
      role: MemberRole;
      sessionId: string;
      /** The business: the LIVE account, which keeps the team and the audit log, whichever environment the session looks at. */
      businessId: string;
    };

export type SessionPrincipal = Extract<Principal, { kind: 'session' }>;

export interface PrincipalState {
  principal: Principal;
}

/** The principal a guard admitted; only routes behind the apiKey, merchant or session guard may ask. */
export function principalOf(ctx: { state: unknown }): Principal {
  const { principal } = ctx.state as Partial<PrincipalState>;
  if (!principal) throw new Error('principalOf() on a route without a merchant guard');
  return principal;
}

/** The session principal of a session-only route. */
export function sessionOf(ctx: { state: unknown }): SessionPrincipal {
  const principal = principalOf(ctx);
  if (principal.kind !== 'session') throw new Error('sessionOf() on a route an API key reached');
  return principal;
}

/** Refuses a session whose member has none of `roles` with 403 ROLE_NOT_ALLOWED; an API key passes (it is the business's own backend). */
export function requireRole(ctx: { state: unknown }, roles: readonly MemberRole[]): void {
  const refusal = roleRefusal(ctx, roles);
  if (refusal) throw new ApiError(403, refusal, 'ROLE_NOT_ALLOWED');
}

/** Why the caller may not do this, for a route that answers ROLE_NOT_ALLOWED in its own shape; null when it may. */
export function roleRefusal(ctx: { state: unknown }, roles: readonly MemberRole[]): string | null {
  const principal = principalOf(ctx);
  if (principal.kind === 'session' && !roles.includes(principal.role)) {
    return `A ${principal.role.toLowerCase()} may not do this; it takes ${roles.join(' or ')}`;
  }
  return null;
}

/** An operation's `roles` (gateway/operations/operation.ts): requireRole as a route's middleware, ahead of the body. */
export function roleGate(roles: readonly MemberRole[]): Middleware {
  return async (ctx, next) => {
    requireRole(ctx, roles);
    await next();
  };
}
