/**
 * The audit log has every dashboard and action call (docs/dashboard-auth.md): every call a
 * session makes once its guard admits it, reads included, each call its own small entry; and
 * every remediation call and poll, an API key's too. What the guard refuses names nobody and is
 * not there; an API key's other calls are the business's backend, not the dashboard.
 */
import test from 'ava';
import { placeOrder } from '../../support/checkout.js';
import { dashboardWorld } from '../../support/dashboard.js';

interface Entry {
  operationId: string;
  read: boolean;
  actor: { kind: string; email?: string };
  targets: Record<string, string>;
  status: number;
  environment: string | null;
}

test('every call of a session is recorded, reads and refusals included, once per call and small; the action poll too, an API key’s as well', async (t) => {
  const world = await dashboardWorld(t, { RATE_LIMIT_PER_MINUTE: 1_000_000 });
  const business = await world.business();
  const order = await placeOrder(world.gateway, business.liveKey);
  const owner = await world.signIn(business.ownerEmail);
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');
  const since = (await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log?limit=100')).body.responseObject.total as number;

  for (let i = 0; i < 3; i++) t.is((await world.call(owner, 'GET', '/api/v1/merchants/me/orders')).status, 200);
  t.is((await world.call(owner, 'GET', `/api/v1/merchants/me/orders/${order.id}`)).status, 200);
  // Not even a valid id: a 400 is a call too.
  t.is((await world.call(owner, 'GET', '/api/v1/merchants/me/orders/not-an-order')).status, 400);
  t.is((await world.call(owner, 'GET', '/api/v1/dashboard/session')).status, 200);
  t.is((await world.call(cashier, 'GET', '/api/v1/webhooks')).status, 200);
  t.is((await world.call(cashier, 'GET', '/api/v1/merchants/me/audit-log')).status, 403);
  const actionId = `act_${order.id.slice(order.id.indexOf('_') + 1)}`;
  const poll = `/api/v1/merchants/me/orders/${order.id}/actions/${actionId}`;
  t.is((await world.call(cashier, 'GET', poll)).status, 404);
  // Refused by the guard: nobody to name, so not recorded.
  t.is((await world.call(owner, 'POST', '/api/v1/dashboard/session/environment', { body: { environment: 'SANDBOX' }, csrf: null })).status, 403);
  t.is((await world.gateway.request('GET', '/api/v1/merchants/me/orders', { headers: { cookie: 'peer_dashboard_session=pds_nothing' } })).status, 401);
  // An API key's read is the backend's, not the dashboard's; its poll is an action call.
  t.is((await world.gateway.request('GET', '/api/v1/merchants/me/orders', { key: business.liveKey })).status, 200);
  t.is((await world.gateway.request('GET', poll, { key: business.liveKey })).status, 404);

  const log = await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log?limit=100');
  const entries = (log.body.responseObject.entries as Entry[]).slice(0, log.body.responseObject.total - since).reverse();
  t.deepEqual(
    entries.map((entry) => `${entry.operationId} ${entry.actor.email ?? entry.actor.kind} ${entry.status}`),
    [
      // The read that counted the log before: recorded once answered.
      'listAuditLog owner@acme.example 200',
      'listOrders owner@acme.example 200',
      'listOrders owner@acme.example 200',
      'listOrders owner@acme.example 200',
      'getMerchantOrder owner@acme.example 200',
      'getMerchantOrder owner@acme.example 400',
      'getDashboardSession owner@acme.example 200',
      'listWebhooks cashier@acme.example 200',
      'listAuditLog cashier@acme.example 403',
      'getAction cashier@acme.example 404',
      'getAction apiKey 404',
    ],
  );
  t.deepEqual(entries[4]!.targets, { orderId: order.id });
  t.deepEqual(entries.at(-1)!.targets, { orderId: order.id, actionId });
  t.is(entries[1]!.environment, 'LIVE');
  t.deepEqual(
    entries.map((entry) => entry.read),
    [true, true, true, true, true, true, true, true, true, true, true],
    'each a GET: a read',
  );
  // Reads outnumber changes: an Owner may leave them out, and finds the sign-ins and the invitation.
  const changes = await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log?limit=100&reads=exclude');
  t.deepEqual((changes.body.responseObject.entries as Entry[]).map((entry) => `${entry.operationId} ${entry.actor.email}`).reverse(), [
    'signInDashboard owner@acme.example',
    'inviteTeamMember owner@acme.example',
    'signInDashboard cashier@acme.example',
  ]);
  // Small: ids, names and a status, never the answer or the query.
  for (const entry of entries) t.true(JSON.stringify(entry).length < 500, JSON.stringify(entry));
});
