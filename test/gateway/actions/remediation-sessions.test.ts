/**
 * Remediation through a dashboard session (document 1, Authentication 6): an Owner or a Manager
 * may act, a Cashier gets 403 ROLE_NOT_ALLOWED, a session in the sandbox gets
 * SANDBOX_NOT_SUPPORTED, a call without the CSRF token is refused, and every action asked for is
 * in the audit log with who asked, from where, and how it was answered.
 */
import test from 'ava';
import { actionKind } from '../../../actors/kinds/index.js';
import { dashboardWorld } from '../../support/dashboard.js';
import { liveAttempt } from '../../support/remediation.js';

test('Owner and Manager sessions act, a Cashier is refused, and the audit log says who asked for what', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const manager = await world.member(owner, 'manager@acme.example', 'MANAGER');
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');
  const attempt = await liveAttempt(world.gateway, business, 'AWAITING_PAYMENT');
  const cancelled = await liveAttempt(world.gateway, business, 'CANCELLED');

  const refused = await world.call(cashier, 'POST', attempt.path('extend'));
  t.deepEqual([refused.status, refused.body.responseObject], [403, { code: 'ROLE_NOT_ALLOWED' }]);
  const noCsrf = await world.call(manager, 'POST', attempt.path('extend'), { csrf: null });
  t.is(noCsrf.status, 403);
  t.is(noCsrf.body.errorCode, 'CSRF_TOKEN_MISSING');
  t.is(await world.gateway.node.system.views(actionKind).count({}), 0);

  const byManager = await world.call(manager, 'POST', attempt.path('extend'), { body: { idempotencyKey: 'manager-extend-1' } });
  t.is(byManager.status, 202);
  const byOwner = await world.call(owner, 'POST', cancelled.path('recreate'));
  t.is(byOwner.status, 202);
  // The cashier may read an action all the same: reads are open to every member.
  const polled = await world.call(cashier, 'GET', `/api/v1/merchants/me/orders/${attempt.order.id}/actions/${byManager.body.responseObject.actionId}`);
  t.is(polled.status, 200);
  // And the API key stays a way in, recorded as such.
  t.is((await world.gateway.request('POST', attempt.path('extend'), { key: business.liveKey, body: { idempotencyKey: 'manager-extend-1' } })).status, 200);

  const log = await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log');
  t.is(log.status, 200);
  const entries = (log.body.responseObject.entries as Array<Record<string, any>>).filter((entry) =>
    ['extendPayment', 'recreatePayment'].includes(entry.operationId),
  );
  t.deepEqual(
    entries.map((entry) => [entry.operationId, entry.actor.email ?? entry.actor.kind, entry.status]).reverse(),
    // The call without its CSRF token is not there: the guard refused it before anyone could be named for it.
    [
      ['extendPayment', 'cashier@acme.example', 403],
      ['extendPayment', 'manager@acme.example', 202],
      ['recreatePayment', 'owner@acme.example', 202],
      ['extendPayment', 'apiKey', 200],
    ],
  );
  t.like(entries.at(-1)!.targets, { orderId: attempt.order.id, paymentId: attempt.paymentId });
  t.truthy(entries.at(-1)!.clientIp);
});

test('a session in the sandbox is refused as a sandbox key is', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail, { environment: 'SANDBOX' });
  const attempt = await liveAttempt(world.gateway, business, 'AWAITING_PAYMENT');
  const refused = await world.call(owner, 'POST', attempt.path('extend'));
  // The sandbox account does not hold the live order: the refusal comes before the order is looked for.
  t.deepEqual([refused.status, refused.body.responseObject], [403, { code: 'SANDBOX_NOT_SUPPORTED' }]);
});
