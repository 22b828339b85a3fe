/**
 * The checkout's branding from the dashboard (docs/branding.md): GET and PATCH
 * /api/v1/merchants/me/branding, validated strictly, Owner or Manager only, audited, CSRF
 * as every dashboard write; and the hosted order read showing it on live and sandbox orders.
 */
import test from 'ava';
import { answerOf, hostedRead, placeOrder } from '../../support/checkout.js';
import { dashboardWorld } from '../../support/dashboard.js';

test('the branding a Manager saves is what the hosted order shows, on live and sandbox orders; null restores the default look', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const manager = await world.member(owner, 'manager@acme.example', 'MANAGER');
  const live = await placeOrder(world.gateway, business.liveKey, { requestedUsdcAmount: '10' });
  const sandbox = await placeOrder(world.gateway, business.sandboxKey, { requestedUsdcAmount: '10' });

  t.deepEqual(answerOf(await world.call(owner, 'GET', '/api/v1/merchants/me/branding'), 200, 'read'), { disableBranding: false, checkoutTheme: null });
  t.like((await hostedRead(world.gateway, live.id)).merchant, { disableBranding: false, checkoutTheme: null });

  const saved = answerOf(
    await world.call(manager, 'PATCH', '/api/v1/merchants/me/branding', {
      body: { disableBranding: true, checkoutTheme: { accentColor: '#0a7cff', mode: 'dark' } },
    }),
    200,
    'save',
  );
  const theme = { accentColor: '#0A7CFF', mode: 'dark' };
  t.deepEqual(saved, { disableBranding: true, checkoutTheme: theme });
  for (const order of [live, sandbox]) t.like((await hostedRead(world.gateway, order.id)).merchant, { disableBranding: true, checkoutTheme: theme });

  // One field at a time: the other stays.
  answerOf(await world.call(owner, 'PATCH', '/api/v1/merchants/me/branding', { body: { checkoutTheme: null } }), 200, 'reset theme');
  t.like((await hostedRead(world.gateway, live.id)).merchant, { disableBranding: true, checkoutTheme: null });

  const audit = answerOf(await world.call(owner, 'GET', '/api/v1/merchants/me/audit-log'), 200, 'audit');
  t.deepEqual(
    audit.entries.filter((entry: { operationId: string }) => entry.operationId === 'updateCheckoutBranding').map((entry: { status: number }) => entry.status),
    [200, 200],
  );
});

test('branding is validated strictly, and only an Owner or a Manager with the CSRF token changes it', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');
  const patch = (body: unknown, session = owner, csrf?: string | null) =>
    world.call(session, 'PATCH', '/api/v1/merchants/me/branding', { body, ...(csrf === undefined ? {} : { csrf }) });

  for (const body of [
    {},
    { checkoutTheme: { accentColor: '#0A7CF', mode: 'light' } },
    { checkoutTheme: { accentColor: 'red', mode: 'light' } },
    { checkoutTheme: { accentColor: '#0A7CFF' } },
    { checkoutTheme: { accentColor: '#0A7CFF', mode: 'blue' } },
    { checkoutTheme: { accentColor: '#0A7CFF', mode: 'light', font: 'Comic Sans' } },
    { checkoutTheme: { accentColor: '#0A7CFF;background:url(x)', mode: 'light' } },
    { disableBranding: 'yes' },
    { logoUrl: 'https://example.com/logo.png' },
  ]) {
    const refused = await patch(body);
    t.is(refused.status, 400, JSON.stringify(body));
  }
  const byCashier = await patch({ disableBranding: true }, cashier);
  t.is(byCashier.status, 403);
  t.is(byCashier.body.errorCode, 'ROLE_NOT_ALLOWED');
  t.is((await world.call(cashier, 'GET', '/api/v1/merchants/me/branding')).status, 200, 'a cashier may read it');
  const noCsrf = await patch({ disableBranding: true }, owner, null);
  t.is(noCsrf.body.errorCode, 'CSRF_TOKEN_MISSING');
  const byKey = await world.gateway.request('PATCH', '/api/v1/merchants/me/branding', { key: business.liveKey, body: { disableBranding: true } });
  t.is(byKey.status, 403);
  t.is(byKey.body.errorCode, 'API_KEY_NOT_ALLOWED');
  t.deepEqual(answerOf(await world.call(owner, 'GET', '/api/v1/merchants/me/branding'), 200, 'read'), { disableBranding: false, checkoutTheme: null });
});

test('the admin merchant update sets the same settings, validated the same way', async (t) => {
  const world = await dashboardWorld(t);
  const business = await world.business();
  const order = await placeOrder(world.gateway, business.sandboxKey, { requestedUsdcAmount: '10' });
  const bad = await world.gateway.admin('PATCH', `/internal/v1/merchants/${business.sandboxId}`, { checkoutTheme: { accentColor: 'blue', mode: 'auto' } });
  t.is(bad.status, 400);
  answerOf(
    await world.gateway.admin('PATCH', `/internal/v1/merchants/${business.sandboxId}`, { checkoutTheme: { accentColor: '#112233', mode: 'auto' } }),
    200,
    'admin update',
  );
  t.like((await hostedRead(world.gateway, order.id)).merchant, { disableBranding: false, checkoutTheme: { accentColor: '#112233', mode: 'auto' } });
});
