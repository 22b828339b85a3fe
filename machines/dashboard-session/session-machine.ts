/**
 * A merchant dashboard session (docs/dashboard-auth.md): one sign-in of a team member with an
 * e-mailed code. Its actor id is derived from the session cookie's value, so the store never
 * holds the cookie and the guard finds the session without an index. It ends when the member
 * signs out, when every session of theirs is revoked, or when it has been idle too long or
 * lived too long; the last two are read against the clock by whoever reads it, so no timer is
 * needed. Being seen (TOUCH) moves the idle deadline.
 */
import { assign, setup } from 'xstate';

export type SessionEnvironment = 'LIVE' | 'SANDBOX';

/** Without a request for this long, a session ends. */
export const SESSION_IDLE_MS = 30 * 60 * 1000;
/** However busy, a session ends this long after its sign-in. */
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

export type SessionEndReason = 'SIGNED_OUT' | 'REVOKED' | 'MEMBER_REMOVED';

export interface DashboardSessionInput {
  id: string;
  /** SHA-256 hex of the cookie's value, compared in constant time by the guard. */
  tokenHash: string;
  /** The business: its LIVE account, which keeps the team. */
  merchantId: string;
  userId: string;
  email: string;
  environment: SessionEnvironment;
  at: string;
}

export interface DashboardSessionContext extends DashboardSessionInput {
  signedInAt: string;
  lastSeenAt: string;
  expiresAt: string;
  endedAt: string | null;
  endReason: SessionEndReason | null;
}

export type DashboardSessionEvent =
  | ({ type: 'SIGN_IN' } & Omit<DashboardSessionInput, 'id'>)
  | { type: 'TOUCH'; at: string }
  | { type: 'SWITCH_ENVIRONMENT'; environment: SessionEnvironment; at: string }
  | { type: 'END'; reason: SessionEndReason; at: string };

/** When `session` stops being usable by itself: idle or at its absolute end, whichever is first. */
export function sessionDeadline(session: Pick<DashboardSessionContext, 'lastSeenAt' | 'expiresAt'>): number {
  return Math.min(Date.parse(session.lastSeenAt) + SESSION_IDLE_MS, Date.parse(session.expiresAt));
}

export const dashboardSessionMachine = setup({
  types: { context: {} as DashboardSessionContext, events: {} as DashboardSessionEvent, input: {} as DashboardSessionInput },
}).createMachine({
  id: 'dashboard-session',
  context: ({ input }) => ({
    ...input,
    signedInAt: input.at,
    lastSeenAt: input.at,
    expiresAt: new Date(Date.parse(input.at) + SESSION_ABSOLUTE_MS).toISOString(),
    endedAt: null,
    endReason: null,
  }),
  initial: 'OPEN',
  states: {
    OPEN: {
      on: {
        TOUCH: { actions: assign(({ event }) => ({ lastSeenAt: event.at })) },
        SWITCH_ENVIRONMENT: { actions: assign(({ event }) => ({ environment: event.environment, lastSeenAt: event.at })) },
        END: { target: 'ENDED', actions: assign(({ event }) => ({ endedAt: event.at, endReason: event.reason })) },
      },
    },
    // Ending twice (a sign-out racing a revoke) is the same outcome as once. An action, so that the runtime takes it.
    ENDED: { on: { END: { actions: assign(() => ({})) } } },
  },
});
