/**
 * The merchant dashboard's sign-in and session (docs/dashboard-auth.md): ask for an e-mailed
 * code, sign in with it for a session cookie, read the session (with its CSRF token), switch its
 * environment, sign out, and end every session of the member.
 */
import { z } from 'zod';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { dashboardSessionKind } from '../../actors/kinds/dashboard-session-kind.js';
import { reply } from '../envelope.js';
import { invalid, standardAnswers, success } from '../openapi/answers.js';
import { sessionRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { audited } from './audit-log.js';
import type { DashboardDependencies } from './dashboard-dependencies.js';
import {
  codeRefusal,
  codeRequested,
  dashboardSession,
  environmentBody,
  merchantChoice,
  requestCodeBody,
  sessionsRevoked,
  signedOut,
  signInBody,
} from './dashboard-schemas.js';
import { sessionResource } from './dashboard-session-view.js';
import { sessionOf } from './principal.js';
import { sessionCookie } from './session-tokens.js';

const tags = ['Dashboard'];
const PREFIX = '/api/v1/dashboard';

const noTargets = () => ({});

const requestCodeOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/sign-in/code`,
  operationId: 'requestDashboardSignInCode',
  tags,
  summary: 'E-mail a sign-in code to a team member',
  description:
    'Answers 202 alike for every address, so the answer tells nobody who is on a team; only a team’s address is sent a code (6 digits, 10 minutes, one use). Five requests per address and thirty sign-in calls per client address in 15 minutes; past them, 429.',
  guard: 'none',
  request: { body: requestCodeBody },
  answers: standardAnswers({ '202': success(202, codeRequested, 'A code was mailed if the address is on a team'), '400': invalid('the body') }, { body: true }),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 202, 'If the address is on a team, a code is on its way', codeRequested, await deps.auth.requestCode(body.email, ctx.state.clientIp));
    },
});

const signInOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/sign-in`,
  operationId: 'signInDashboard',
  tags,
  summary: 'Sign in with the e-mailed code',
  description:
    'Sets the session cookie `peer_dashboard_session` (HttpOnly, SameSite=Strict, Path=/, Secure outside development) and answers the session with its csrfToken. A session ends after 30 minutes without a request, and 12 hours after sign-in in any case.',
  guard: 'none',
  request: { body: signInBody },
  answers: standardAnswers(
    {
      '200': success(200, dashboardSession, 'Signed in: the cookie is set'),
      '400': invalid('the body'),
      '401': detailedFailure(401, [{ code: 'SIGN_IN_CODE_INVALID', when: 'the code did not sign in; responseObject.reason says why', details: codeRefusal }]),
      '409': detailedFailure(409, [{ code: 'MERCHANT_REQUIRED', details: merchantChoice }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { body }) => {
      const signedIn = await deps.auth.signIn({ ...body, clientIp: ctx.state.clientIp });
      ctx.append('set-cookie', sessionCookie(signedIn.token, { secure: deps.secureCookies, expires: new Date(signedIn.expiresAt) }));
      reply(ctx, 200, 'Signed in', dashboardSession, await sessionResource(deps, signedIn.sessionId));
    },
});

const readSessionOperation = defineOperation({
  method: 'get',
  path: `${PREFIX}/session`,
  operationId: 'getDashboardSession',
  tags,
  summary: 'The current session, with its CSRF token',
  guard: 'session',
  answers: standardAnswers({ '200': success(200, dashboardSession, 'The session'), ...sessionRefusals(false) }, { asksActors: true }),
  handle: (deps: DashboardDependencies) => async (ctx) => {
    reply(ctx, 200, 'Dashboard session', dashboardSession, await sessionResource(deps, sessionOf(ctx).sessionId));
  },
});

const switchEnvironmentOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/session/environment`,
  operationId: 'switchDashboardEnvironment',
  tags,
  summary: 'Switch the session to the live account or its sandbox twin',
  description:
    'Every merchant route the session calls from then on acts on that environment’s account. The team and the audit log are the business’s, the same in both.',
  guard: 'session',
  request: { body: environmentBody },
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'switchDashboardEnvironment', (ctx) => environmentTarget(ctx))],
  answers: standardAnswers(
    { '200': success(200, dashboardSession, 'The session, on that environment'), '400': invalid('the body'), ...sessionRefusals(true) },
    {
      body: true,
      asksActors: true,
    },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { body }) => {
      const { sessionId } = sessionOf(ctx);
      await deps.system.ask(dashboardSessionKind, sessionId, { type: 'SWITCH_ENVIRONMENT', environment: body.environment, at: deps.now() });
      reply(ctx, 200, `Switched to ${body.environment}`, dashboardSession, await sessionResource(deps, sessionId));
    },
});

const signOutOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/sign-out`,
  operationId: 'signOutDashboard',
  tags,
  summary: 'End this session',
  description: 'The member’s other sessions go on. Clears the cookie.',
  guard: 'session',
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'signOutDashboard', noTargets)],
  answers: standardAnswers({ '200': success(200, signedOut, 'Signed out'), ...sessionRefusals(true) }, { asksActors: true }),
  handle: (deps: DashboardDependencies) => async (ctx) => {
    await deps.auth.end({ sessionId: sessionOf(ctx).sessionId }, 'SIGNED_OUT');
    ctx.append('set-cookie', sessionCookie('', { secure: deps.secureCookies, expires: null }));
    reply(ctx, 200, 'Signed out', signedOut, { signedOutAt: deps.now() });
  },
});

const revokeAllOperation = defineOperation({
  method: 'post',
  path: `${PREFIX}/sessions/revoke-all`,
  operationId: 'revokeAllDashboardSessions',
  tags,
  summary: 'End every session of the signed-in member',
  description: 'On every device, this one included: for a lost laptop or a shared computer. Clears this cookie.',
  guard: 'session',
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'revokeAllDashboardSessions', (ctx) => ({ userId: sessionOf(ctx).userId }))],
  answers: standardAnswers({ '200': success(200, sessionsRevoked, 'Every session ended'), ...sessionRefusals(true) }, { asksActors: true }),
  handle: (deps: DashboardDependencies) => async (ctx) => {
    const revokedSessions = await deps.auth.end({ userId: sessionOf(ctx).userId }, 'REVOKED');
    ctx.append('set-cookie', sessionCookie('', { secure: deps.secureCookies, expires: null }));
    reply(ctx, 200, 'Every session ended', sessionsRevoked, { revokedSessions, revokedAt: deps.now() });
  },
});

/** Read once the body is parsed: the audit records after the handler. */
function environmentTarget(ctx: { request: { body?: unknown } }): Record<string, string> {
  const parsed = z.object({ environment: z.string() }).safeParse(ctx.request.body);
  return parsed.success ? { environment: parsed.data.environment } : {};
}

export function dashboardAuthOperations(): Operation<DashboardDependencies>[] {
  return [requestCodeOperation, signInOperation, readSessionOperation, switchEnvironmentOperation, signOutOperation, revokeAllOperation];
}
