/**
 * The merchant routes the dashboard page calls, through HTTP with a session as the page sends it
 * (docs/dashboard-auth.md): reads for any member, webhook changes for an Owner or a Manager, the
 * CSRF token on every change, the API key still answered alike, and the Owner's key rotation.
 */
import test from 'ava';
import { placeOrder } from '../../support/checkout.js';
import { dashboardWorld } from '../../support/dashboard.js';
import { startReceiver } from '../../support/webhook-receiver.js';

async function team(t: Parameters<typeof dashboardWorld>[0]) {
  // The receiver listens on loopback, which a node delivers to only when told so.
  const world = await dashboardWorld(t, { WEBHOOK_ALLOW_PRIVATE: true });
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const manager = await world.member(owner, 'manager@acme.example', 'MANAGER');
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');
  return { world, business, owner, manager, cashier };
}

test('a session reads what the key reads: the profile, orders, payments, an order’s attempts, webhooks, events', async (t) => {
  const { world, business, cashier } = await team(t);
  const order = await placeOrder(world.gateway, business.liveKey);
  for (const path of [
    '/api/v1/merchants/me',
    '/api/v1/merchants/me/orders',
    '/api/v1/merchants/me/payments',
    `/api/v1/merchants/me/orders/${order.id}/payments`,
    '/api/v1/webhooks',
    '/api/v1/events',
  ]) {
    const bySession = await world.call(cashier, 'GET', path, { csrf: null });
    const byKey = await world.gateway.request('GET', path, { key: business.liveKey });
    t.is(bySession.status, 200, path);
    t.deepEqual(bySession.body.responseObject, byKey.body.responseObject, path);
  }
  const orders = await world.call(cashier, 'GET', '/api/v1/merchants/me/orders', { csrf: null });
  t.deepEqual(
    orders.body.responseObject.orders.map((row: { id: string }) => row.id),
    [order.id],
  );
  // The session's other environment sees its own accounts' rows: none here.
  await world.call(cashier, 'POST', '/api/v1/dashboard/session/environment', { body: { environment: 'SANDBOX' } });
  const sandbox = await world.call(cashier, 'GET', '/api/v1/merchants/me/orders', { csrf: null });
  t.is(sandbox.body.responseObject.total, 0);
  const profile = await world.call(cashier, 'GET', '/api/v1/merchants/me', { csrf: null });
  t.is(profile.body.responseObject.id, business.sandboxId);
});

test('webhook changes and test events take an Owner or a Manager, and the CSRF token; a cashier is refused', async (t) => {
  const { world, manager, cashier } = await team(t);
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const body = { url: `${receiver.url}/hooks` };

  const refused = await world.call(cashier, 'POST', '/api/v1/webhooks', { body });
  t.is(refused.status, 403);
  t.is(refused.body.errorCode, 'ROLE_NOT_ALLOWED');
  const noToken = await world.call(manager, 'POST', '/api/v1/webhooks', { body, csrf: null });
  t.is(noToken.status, 403);
  t.is(noToken.body.errorCode, 'CSRF_TOKEN_MISSING');
  t.is((await world.call(manager, 'GET', '/api/v1/webhooks', { csrf: null })).body.responseObject.webhooks.length, 0, 'a refused call made nothing');

  const created = await world.call(manager, 'POST', '/api/v1/webhooks', { body });
  t.is(created.status, 201);
  const webhookId = created.body.responseObject.id as string;
  const cashierTest = await world.call(cashier, 'POST', `/api/v1/webhooks/${webhookId}/test`, { body: {} });
  t.is(cashierTest.body.errorCode, 'ROLE_NOT_ALLOWED');
  const sent = await world.call(manager, 'POST', `/api/v1/webhooks/${webhookId}/test`, { body: {} });
  t.is(sent.status, 200);
  t.is(receiver.requests.length, 1);

  const deliveries = await world.call(cashier, 'GET', `/api/v1/webhooks/${webhookId}/deliveries`, { csrf: null });
  t.is(deliveries.status, 200);
  const deliveryId = deliveries.body.responseObject.deliveries[0].id as string;
  const cashierRedeliver = await world.call(cashier, 'POST', `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`);
  t.is(cashierRedeliver.body.errorCode, 'ROLE_NOT_ALLOWED');
  const wrongToken = await world.call(manager, 'POST', `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { csrf: 'not-the-token' });
  t.is(wrongToken.body.errorCode, 'CSRF_TOKEN_INVALID');
  t.is((await world.call(cashier, 'DELETE', `/api/v1/webhooks/${webhookId}`)).body.errorCode, 'ROLE_NOT_ALLOWED');
  t.is((await world.call(manager, 'DELETE', `/api/v1/webhooks/${webhookId}`)).status, 200);
});

test('the API key still changes webhooks, with no CSRF token and no role', async (t) => {
  const { world, business } = await team(t);
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const created = await world.gateway.request('POST', '/api/v1/webhooks', { key: business.sandboxKey, body: { url: `${receiver.url}/hooks` } });
  t.is(created.status, 201);
  const sent = await world.gateway.request('POST', `/api/v1/webhooks/${created.body.responseObject.id}/test`, { key: business.sandboxKey, body: {} });
  t.is(sent.status, 200);
});

test('an Owner rotates the session environment’s key, once answered; the old key stops working; recorded in the audit log', async (t) => {
  const { world, business, owner, manager } = await team(t);
  const byManager = await world.call(manager, 'POST', '/api/v1/merchants/me/api-key/rotate');
  t.is(byManager.status, 403);
  t.is(byManager.body.errorCode, 'ROLE_NOT_ALLOWED');
  const byKey = await world.gateway.request('POST', '/api/v1/merchants/me/api-key/rotate', { key: business.liveKey });
  t.is(byKey.body.errorCode, 'API_KEY_NOT_ALLOWED');
  t.is((await world.call(owner, 'POST', '/api/v1/merchants/me/api-key/rotate', { csrf: null })).body.errorCode, 'CSRF_TOKEN_MISSING');

  const rotated = await world.call(owner, 'POST', '/api/v1/merchants/me/api-key/rotate');
  t.is(rotated.status, 200);
  const { apiKey, apiKeyHint, environment } = rotated.body.responseObject;
  t.is(environment, 'LIVE');
  t.true(apiKey.startsWith('pk_live_'));
  t.is(apiKeyHint, `pk_live_…${apiKey.slice(-4)}`);
  t.is((await world.gateway.request('GET', '/api/v1/merchants/me', { key: business.liveKey })).status, 401);
  const profile = await world.gateway.request('GET', '/api/v1/merchants/me', { key: apiKey });
  t.is(profile.body.responseObject.apiKey, apiKeyHint);
  t.is((await world.gateway.request('GET', '/api/v1/merchants/me', { key: business.sandboxKey })).status, 200, 'the other environment’s key is untouched');

  const log = await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log', { csrf: null });
  const rotations = log.body.responseObject.entries.filter((entry: { operationId: string }) => entry.operationId === 'rotateOwnApiKey');
  t.deepEqual(
    rotations.map((entry: { status: number; actor: { email: string } }) => [entry.status, entry.actor.email]),
    [
      [200, business.ownerEmail],
      [403, 'manager@acme.example'],
    ],
  );
});
