/**
 * Passkeys on the dashboard (docs/dashboard-auth.md): a signed-in member asks for registration
 * options, answers them with what the authenticator made, lists and removes their passkeys; anyone
 * asks for sign-in options and answers them for the same session cookie a code gives. Registration
 * and removal are audited; a passkey sign-in is recorded as a code's is.
 */
import type { z } from 'zod';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { sessionRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import type { RegistrationResponseJSON, AuthenticationResponseJSON } from '@simplewebauthn/server';
import { audited } from './audit-log.js';
import type { DashboardDependencies } from './dashboard-dependencies.js';
import { dashboardSession } from './dashboard-schemas.js';
import { sessionResource } from './dashboard-session-view.js';
import {
  creationOptions,
  passkey,
  passkeyList,
  passkeyPath,
  passkeyRefusal,
  passkeyRemoved,
  passkeySignInBody,
  registerPasskeyBody,
  registrationRefusal,
  requestOptions,
} from './passkey-schemas.js';
import { sessionOf } from './principal.js';
import { sessionCookie } from './session-tokens.js';

const tags = ['Dashboard'];
const MINE = '/api/v1/dashboard/passkeys';
const SIGN_IN = '/api/v1/dashboard/sign-in/passkey';

const registrationOptionsOperation = defineOperation({
  method: 'post',
  path: `${MINE}/registration-options`,
  operationId: 'startDashboardPasskeyRegistration',
  tags,
  summary: 'Options to register a passkey for the signed-in member',
  description:
    'Hand them to navigator.credentials.create() and send what it answers to POST /api/v1/dashboard/passkeys within five minutes; the challenge serves once.',
  guard: 'session',
  answers: standardAnswers({ '200': success(200, creationOptions, 'The registration options'), ...sessionRefusals(true) }, { asksActors: true }),
  handle: (deps: DashboardDependencies) => async (ctx) => {
    reply(
      ctx,
      200,
      'Passkey registration options',
      creationOptions,
      (await deps.passkeys.registrationOptions(sessionOf(ctx))) as unknown as z.input<typeof creationOptions>,
    );
  },
});

const registerOperation = defineOperation({
  method: 'post',
  path: MINE,
  operationId: 'registerDashboardPasskey',
  tags,
  summary: 'Register a passkey for the signed-in member',
  description: 'From then on the member may sign in with it instead of an e-mailed code.',
  guard: 'session',
  request: { body: registerPasskeyBody },
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'registerDashboardPasskey', (ctx) => registeredTarget(ctx.state))],
  answers: standardAnswers(
    {
      '201': success(201, passkey, 'Registered'),
      '400': invalid('the body'),
      ...sessionRefusals(true),
      '409': failure(409, [{ code: 'PASSKEY_EXISTS' }]),
      '422': detailedFailure(422, [
        { code: 'PASSKEY_REGISTRATION_INVALID', when: 'the passkey was not registered; responseObject.reason says why', details: registrationRefusal },
      ]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { body }) => {
      const registered = await deps.passkeys.register(sessionOf(ctx), body.response as unknown as RegistrationResponseJSON, body.name);
      (ctx.state as RegisteredState).registered = registered.passkeyId;
      reply(ctx, 201, 'Passkey registered', passkey, registered);
    },
});

const listOperation = defineOperation({
  method: 'get',
  path: MINE,
  operationId: 'listDashboardPasskeys',
  tags,
  summary: 'The signed-in member’s passkeys',
  guard: 'session',
  answers: standardAnswers({ '200': success(200, passkeyList, 'The passkeys'), ...sessionRefusals(false) }),
  handle: (deps: DashboardDependencies) => async (ctx) => {
    reply(ctx, 200, 'Passkeys', passkeyList, { passkeys: await deps.passkeys.list(sessionOf(ctx)) });
  },
});

const removeOperation = defineOperation({
  method: 'delete',
  path: `${MINE}/:passkeyId`,
  operationId: 'removeDashboardPasskey',
  tags,
  summary: 'Remove one of the signed-in member’s passkeys',
  description: 'It signs in no more; sessions it opened go on (revoke-all ends them).',
  guard: 'session',
  request: { path: passkeyPath },
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'removeDashboardPasskey')],
  answers: standardAnswers(
    {
      '200': success(200, passkeyRemoved, 'Removed'),
      '400': invalid('passkeyId is not a credential id'),
      ...sessionRefusals(true),
      '404': failure(404, [{ code: 'PASSKEY_NOT_FOUND' }]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { path }) => {
      await deps.passkeys.remove(sessionOf(ctx), path.passkeyId);
      reply(ctx, 200, 'Passkey removed', passkeyRemoved, { passkeyId: path.passkeyId, removedAt: deps.now() });
    },
});

const signInOptionsOperation = defineOperation({
  method: 'post',
  path: `${SIGN_IN}/options`,
  operationId: 'startDashboardPasskeySignIn',
  tags,
  summary: 'Options to sign in with a passkey',
  description:
    'Names nobody: the authenticator offers the passkeys it holds for this site. Hand them to navigator.credentials.get() and send its answer to POST /api/v1/dashboard/sign-in/passkey within five minutes; the challenge serves once. Counts against the client address’s 30 sign-in calls in 15 minutes.',
  guard: 'none',
  answers: standardAnswers({ '200': success(200, requestOptions, 'The sign-in options') }),
  handle: (deps: DashboardDependencies) => async (ctx) => {
    await deps.auth.spendSignIn(ctx.state.clientIp);
    reply(ctx, 200, 'Passkey sign-in options', requestOptions, (await deps.passkeys.signInOptions()) as unknown as z.input<typeof requestOptions>);
  },
});

const signInOperation = defineOperation({
  method: 'post',
  path: SIGN_IN,
  operationId: 'signInDashboardWithPasskey',
  tags,
  summary: 'Sign in with a passkey',
  description:
    'The same session as an e-mailed code gives: the cookie `peer_dashboard_session` (HttpOnly, SameSite=Strict, Path=/, Secure outside development), its csrfToken, 30 minutes idle and 12 hours at most; recorded in the audit log as a sign-in.',
  guard: 'none',
  request: { body: passkeySignInBody },
  answers: standardAnswers(
    {
      '200': success(200, dashboardSession, 'Signed in: the cookie is set'),
      '400': invalid('the body'),
      '401': detailedFailure(401, [
        { code: 'PASSKEY_SIGN_IN_INVALID', when: 'the passkey did not sign in; responseObject.reason says why', details: passkeyRefusal },
      ]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { body }) => {
      await deps.auth.spendSignIn(ctx.state.clientIp);
      const owner = await deps.passkeys.verifySignIn(body.response as unknown as AuthenticationResponseJSON);
      const signedIn = await deps.auth.signInMember(owner.businessId, owner.userId, body.environment ?? 'LIVE', ctx.state.clientIp);
      ctx.append('set-cookie', sessionCookie(signedIn.token, { secure: deps.secureCookies, expires: new Date(signedIn.expiresAt) }));
      reply(ctx, 200, 'Signed in', dashboardSession, await sessionResource(deps, signedIn.sessionId));
    },
});

/** The registration's handler leaves the passkey's id here, for the audit entry recorded after it. */
type RegisteredState = { registered?: string };
function registeredTarget(state: unknown): Record<string, string> {
  const { registered } = state as RegisteredState;
  return registered ? { passkeyId: registered } : {};
}

export function passkeyOperations(): Operation<DashboardDependencies>[] {
  return [registrationOptionsOperation, registerOperation, listOperation, removeOperation, signInOptionsOperation, signInOperation];
}
