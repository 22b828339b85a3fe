/** The DashboardSession a sign-in, the session read and an environment switch answer. */
import type { z } from 'zod';
import { dashboardSessionKind } from '../../actors/kinds/dashboard-session-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { SESSION_IDLE_MS } from '../../machines/dashboard-session/index.js';
import type { MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { dashboardSession } from './dashboard-schemas.js';
import type { CsrfTokens } from './session-tokens.js';

export async function sessionResource(
  deps: { system: ActorSystem; accounts: MerchantAccounts; csrf: CsrfTokens },
  sessionId: string,
): Promise<z.input<typeof dashboardSession>> {
  const doc = await deps.system.views(dashboardSessionKind).findOne({ _id: sessionId }, { projection: { view: 1 } });
  const session = doc!.view;
  const business = (await deps.accounts.byId(session.merchantId))!;
  const member = business.profile.merchantUsers.find((user) => user.userId === session.userId)!;
  return {
    sessionId,
    userId: session.userId,
    email: session.email,
    role: member.role,
    merchantId: business.merchantId,
    merchantName: business.profile.name,
    environment: session.environment,
    accountId: session.environment === 'LIVE' ? business.merchantId : business.twinId,
    signedInAt: session.signedInAt,
    lastSeenAt: session.lastSeenAt,
    idleExpiresAt: new Date(Math.min(Date.parse(session.lastSeenAt) + SESSION_IDLE_MS, Date.parse(session.expiresAt))).toISOString(),
    expiresAt: session.expiresAt,
    csrfToken: deps.csrf.of(sessionId),
  };
}
