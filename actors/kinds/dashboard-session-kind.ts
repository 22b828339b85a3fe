/**
 * The `dashboard-session` actor kind: one per dashboard sign-in, its id derived from the
 * session cookie (docs/dashboard-auth.md). The view is what the session guard reads on every
 * request; indexed by member, so revoking every session of a member finds them.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { dashboardSessionMachine, type DashboardSessionContext } from '../../machines/dashboard-session/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export const DASHBOARD_SESSION_KIND = 'dashboard-session';

export const dashboardSessionKind = defineKind({
  name: DASHBOARD_SESSION_KIND,
  machine: dashboardSessionMachine,
  machineVersion: 1,
  createdBy: ['SIGN_IN'],
  view: (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as DashboardSessionContext;
    return {
      tokenHash: context.tokenHash,
      merchantId: context.merchantId,
      userId: context.userId,
      email: context.email,
      environment: context.environment,
      open: snapshot.value === 'OPEN',
      signedInAt: context.signedInAt,
      lastSeenAt: context.lastSeenAt,
      expiresAt: context.expiresAt,
      endedAt: context.endedAt,
      endReason: context.endReason,
    };
  },
  // The id is the cookie's: a second SIGN_IN under it would be a cookie drawn twice, which 256 random bits do not do.
  check: (_snapshot, event) => (event.type === 'SIGN_IN' ? { code: 'ALREADY_EXISTS', message: 'This session exists already' } : null),
  viewIndexes: [{ key: { 'view.userId': 1, 'view.open': 1 }, name: 'dashboard_session_by_member' }],
});
