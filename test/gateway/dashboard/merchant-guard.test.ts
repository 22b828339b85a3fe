/**
 * The merchant guard, which the remediation routes take (docs/dashboard-auth.md): the API key
 * or a dashboard session, each leaving the account and the principal as the apiKey guard
 * does; CSRF for a session's call that changes something, never for the key; and requireRole,
 * which refuses a session without the role and lets the key pass. Mounted here over a node's
 * own accounts and sessions, as gateway/app.ts mounts it.
 */
import test from 'ava';
import Router from '@koa/router';
import { CsrfTokens } from '../../../gateway/dashboard/session-tokens.js';
import { merchantGuard, withApiKeyPrincipal } from '../../../gateway/dashboard/session-guard.js';
import { principalOf, requireRole } from '../../../gateway/dashboard/principal.js';
import { respond } from '../../../gateway/envelope.js';
import { MerchantAccounts } from '../../../gateway/merchants/merchant-accounts.js';
import { apiKeyAuth } from '../../../gateway/middleware/api-key.js';
import { clientIp } from '../../../gateway/middleware/client-ip.js';
import type { GatewayState } from '../../../gateway/state.js';
import { dashboardWorld } from '../../support/dashboard.js';
import { serveMiddleware } from '../middleware-app.js';

const ID_SECRET = 'merchant-guard-test-secret-0123456789';

async function guarded(t: Parameters<typeof dashboardWorld>[0] & Parameters<typeof serveMiddleware>[0]) {
  const world = await dashboardWorld(t, { ID_SECRET });
  const system = world.gateway.node.system;
  const accounts = new MerchantAccounts(system);
  const now = () => new Date(world.gateway.clock.now()).toISOString();
  const guard = merchantGuard({ system, accounts, csrf: new CsrfTokens(ID_SECRET), now }, withApiKeyPrincipal(apiKeyAuth((hash) => accounts.byKeyHash(hash))));
  const router = new Router<GatewayState>();
  const echo = (ctx: Parameters<Parameters<typeof router.get>[1]>[0]) =>
    respond(ctx, 200, 'ok', { accountId: ctx.state.account.merchantId, principal: principalOf(ctx) });
  router.get('/read', guard, echo);
  router.post(
    '/act',
    guard,
    (ctx, next) => {
      requireRole(ctx, ['OWNER', 'MANAGER']);
      return next();
    },
    echo,
  );
  const app = await serveMiddleware(t, (koa) => {
    koa.use(clientIp([]) as never);
    koa.use(router.routes() as never);
  });
  return { world, app };
}

test('the API key, or else a session cookie: the account of the session’s environment and who acts', async (t) => {
  const { world, app } = await guarded(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');

  const keyed = await app.call('/read', { headers: { 'x-api-key': business.sandboxKey } });
  t.deepEqual(keyed.body.responseObject, { accountId: business.sandboxId, principal: { kind: 'apiKey' } });
  const session = await app.call('/read', { headers: { cookie: owner.cookie } });
  t.deepEqual(session.body.responseObject, {
    accountId: business.liveId,
    principal: {
      kind: 'session',
      userId: business.ownerId,
      email: business.ownerEmail,
      role: 'OWNER',
      sessionId: owner.sessionId,
      businessId: business.liveId,
    },
  });
  await world.call(cashier, 'POST', '/api/v1/dashboard/session/environment', { body: { environment: 'SANDBOX' } });
  const sandbox = await app.call('/read', { headers: { cookie: cashier.cookie } });
  t.like(sandbox.body.responseObject, { accountId: business.sandboxId, principal: { kind: 'session', role: 'CASHIER' } });
  // The key wins when both are sent: it is the backend's credential.
  const both = await app.call('/read', { headers: { 'x-api-key': business.liveKey, cookie: cashier.cookie } });
  t.deepEqual(both.body.responseObject, { accountId: business.liveId, principal: { kind: 'apiKey' } });

  const none = await app.call('/read');
  t.deepEqual([none.status, none.body.message], [401, 'Missing API key']);
  const dead = await app.call('/read', { headers: { cookie: `peer_dashboard_session=pds_${'B'.repeat(43)}` } });
  t.deepEqual([dead.status, dead.body.errorCode], [401, 'SESSION_INVALID']);
});

test('a session’s call that changes something needs the CSRF token, the key’s does not; requireRole refuses a cashier and passes the key', async (t) => {
  const { world, app } = await guarded(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');

  t.is((await app.call('/act', { method: 'POST', headers: { 'x-api-key': business.liveKey } })).status, 200);
  const missing = await app.call('/act', { method: 'POST', headers: { cookie: owner.cookie } });
  t.deepEqual([missing.status, missing.body.errorCode], [403, 'CSRF_TOKEN_MISSING']);
  const wrong = await app.call('/act', { method: 'POST', headers: { cookie: owner.cookie, 'x-csrf-token': cashier.csrfToken } });
  t.deepEqual([wrong.status, wrong.body.errorCode], [403, 'CSRF_TOKEN_INVALID']);
  t.is((await app.call('/act', { method: 'POST', headers: { cookie: owner.cookie, 'x-csrf-token': owner.csrfToken } })).status, 200);
  const cashierActs = await app.call('/act', { method: 'POST', headers: { cookie: cashier.cookie, 'x-csrf-token': cashier.csrfToken } });
  t.deepEqual([cashierActs.status, cashierActs.body.errorCode], [403, 'ROLE_NOT_ALLOWED']);
});
