import test, { type ExecutionContext } from 'ava';
import { answerOf } from '../../support/checkout.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

const URL_OK = 'http://127.0.0.1:9/hooks';

async function world(t: ExecutionContext, config = {}) {
  const gateway = await startTestGateway({ WEBHOOK_ALLOW_PRIVATE: true, ...config });
  t.teardown(() => gateway.stop());
  return { gateway, merchant: await gateway.createMerchant() };
}

const create = (gateway: TestGateway, key: string, body: unknown) => gateway.request('POST', '/api/v1/webhooks', { key, body });

test('create answers the secret once; reads, the list, changes and delete never show it', async (t) => {
  const { gateway, merchant } = await world(t);
  const key = merchant.liveKey;
  const created = answerOf(await create(gateway, key, { url: URL_OK }), 201, 'create');
  t.regex(created.id, /^whk_[0-9A-Za-z]{24}$/);
  t.regex(created.secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  t.like(created, {
    merchantId: merchant.liveId,
    url: URL_OK,
    events: [],
    active: true,
    customHeaders: [],
    disabledReason: null,
    previousSecretExpiresAt: null,
  });

  const read = answerOf(await gateway.request('GET', `/api/v1/webhooks/${created.id}`, { key }), 200, 'read');
  t.false('secret' in read);
  const list = answerOf(await gateway.request('GET', '/api/v1/webhooks', { key }), 200, 'list');
  t.deepEqual(
    list.webhooks.map((webhook: any) => webhook.id),
    [created.id],
  );
  t.false(JSON.stringify(list).includes(created.secret));

  const changed = answerOf(
    await gateway.request('PATCH', `/api/v1/webhooks/${created.id}`, { key, body: { events: ['PAYMENT_SETTLED'], active: false } }),
    200,
    'update',
  );
  t.like(changed, { events: ['PAYMENT_SETTLED'], active: false, disabledReason: { code: 'MERCHANT' } });
  t.false(JSON.stringify(changed).includes(created.secret));
  const on = answerOf(await gateway.request('PATCH', `/api/v1/webhooks/${created.id}`, { key, body: { active: true } }), 200, 'enable');
  t.like(on, { active: true, disabledReason: null });

  t.deepEqual(answerOf(await gateway.request('DELETE', `/api/v1/webhooks/${created.id}`, { key }), 200, 'delete'), { id: created.id, deleted: true });
  t.is((await gateway.request('GET', `/api/v1/webhooks/${created.id}`, { key })).status, 404);
  t.is((await gateway.request('DELETE', `/api/v1/webhooks/${created.id}`, { key })).status, 404);
  t.deepEqual(answerOf(await gateway.request('GET', '/api/v1/webhooks', { key }), 200, 'list').webhooks, []);
});

test('live and sandbox keep their own webhooks, and another merchant sees none of them', async (t) => {
  const { gateway, merchant } = await world(t);
  const other = await gateway.createMerchant({ name: 'Other', tier: 'BASE' });
  const live = answerOf(await create(gateway, merchant.liveKey, { url: URL_OK }), 201, 'create');
  for (const key of [merchant.sandboxKey, other.liveKey]) {
    t.is((await gateway.request('GET', `/api/v1/webhooks/${live.id}`, { key })).status, 404);
    t.is((await gateway.request('PATCH', `/api/v1/webhooks/${live.id}`, { key, body: { active: false } })).status, 404);
    t.is((await gateway.request('POST', `/api/v1/webhooks/${live.id}/rotate-secret`, { key })).status, 404);
    t.is((await gateway.request('GET', `/api/v1/webhooks/${live.id}/deliveries`, { key })).status, 404);
    t.deepEqual(answerOf(await gateway.request('GET', '/api/v1/webhooks', { key }), 200, 'list').webhooks, []);
  }
});

test('events: document 1’s types as given, v0 names mapped, names with no equivalent a 400 naming them', async (t) => {
  const { gateway, merchant } = await world(t);
  const mapped = answerOf(
    await create(gateway, merchant.liveKey, { url: URL_OK, events: ['order.fulfilled', 'session.started', 'PAYOUT_ORDER_SETTLED', 'ORDER_FULFILLED'] }),
    201,
    'create',
  );
  t.deepEqual(mapped.events, ['ORDER_CREATED', 'ORDER_FULFILLED', 'PAYMENT_SETTLED', 'PAYOUT_ORDER_SETTLED']);
  const refused = await create(gateway, merchant.liveKey, {
    url: URL_OK,
    events: ['ORDER_CREATED', 'order.payment_sent', 'session.abandoned', 'ORDER_SHIPPED'],
  });
  t.is(refused.status, 400);
  t.regex(refused.body.responseObject.fieldErrors.events[0], /order\.payment_sent, session\.abandoned, ORDER_SHIPPED/);
  t.deepEqual(answerOf(await gateway.request('GET', '/api/v1/webhooks', { key: merchant.liveKey }), 200, 'list').webhooks.length, 1, 'nothing made');
});

test('custom headers: up to 10, names normalised and checked, ours refused, none twice', async (t) => {
  const { gateway, merchant } = await world(t);
  const ok = answerOf(await create(gateway, merchant.liveKey, { url: URL_OK, customHeaders: [{ key: ' X-Shop-Token ', value: ' abc ' }] }), 201, 'create');
  t.deepEqual(ok.customHeaders, [{ key: 'x-shop-token', value: 'abc' }]);
  const eleven = Array.from({ length: 11 }, (_, index) => ({ key: `x-h${index}`, value: 'v' }));
  const cases: Array<[string, unknown]> = [
    ['eleven headers', eleven],
    ['our content type', [{ key: 'Content-Type', value: 'text/plain' }]],
    ['our signature', [{ key: 'X-Webhook-Signature', value: 'forged' }]],
    ['a Standard Webhooks header', [{ key: 'webhook-id', value: 'x' }]],
    ['host', [{ key: 'Host', value: 'evil.example' }]],
    ['content length', [{ key: 'content-length', value: '1' }]],
    ['not a header name', [{ key: 'bad header', value: 'v' }]],
    ['a line break in the value', [{ key: 'x-a', value: 'v\r\nx-injected: 1' }]],
    [
      'one name twice',
      [
        { key: 'X-A', value: '1' },
        { key: 'x-a', value: '2' },
      ],
    ],
  ];
  for (const [what, customHeaders] of cases) {
    const refused = await create(gateway, merchant.liveKey, { url: URL_OK, customHeaders });
    t.is(refused.status, 400, what);
    t.truthy(refused.body.responseObject.fieldErrors.customHeaders, what);
  }
  t.is(answerOf(await gateway.request('GET', '/api/v1/webhooks', { key: merchant.liveKey }), 200, 'list').webhooks.length, 1, 'nothing made');
});

test('a private address is refused without the development flag, whatever the spelling, and accepted with it', async (t) => {
  const { gateway, merchant } = await world(t, { WEBHOOK_ALLOW_PRIVATE: false });
  for (const url of [
    'http://127.0.0.1:8080/h',
    'http://[::1]/h',
    'http://localhost/h',
    'http://169.254.169.254/latest',
    'http://10.0.0.7/h',
    'http://2130706433/h',
    'http://[::ffff:192.168.1.1]/h',
  ]) {
    const refused = await create(gateway, merchant.liveKey, { url });
    t.is(refused.status, 400, url);
    t.truthy(refused.body.responseObject.fieldErrors.url, url);
  }
  for (const url of ['ftp://hooks.example/x', 'https://user:pass@hooks.example/x', 'not a url'])
    t.is((await create(gateway, merchant.liveKey, { url })).status, 400, url);
  t.is(
    (await create(gateway, merchant.liveKey, { url: 'https://hooks.example/peer' })).status,
    201,
    'a public name is accepted (it is resolved and checked again at each delivery)',
  );

  const { gateway: development, merchant: developer } = await world(t, { WEBHOOK_ALLOW_PRIVATE: true });
  t.is((await create(development, developer.liveKey, { url: 'http://127.0.0.1:8080/h' })).status, 201);
});

test('an account has at most 16 webhooks', async (t) => {
  const { gateway, merchant } = await world(t);
  for (let index = 0; index < 16; index++) answerOf(await create(gateway, merchant.liveKey, { url: `${URL_OK}/${index}` }), 201, `webhook ${index}`);
  const refused = await create(gateway, merchant.liveKey, { url: URL_OK });
  t.is(refused.status, 409);
  t.is(refused.body.errorCode, 'WEBHOOK_LIMIT_REACHED');
});

test('a rotation answers the new secret and until when the old one signs', async (t) => {
  const { gateway, merchant } = await world(t);
  const created = answerOf(await create(gateway, merchant.liveKey, { url: URL_OK }), 201, 'create');
  const rotated = answerOf(await gateway.request('POST', `/api/v1/webhooks/${created.id}/rotate-secret`, { key: merchant.liveKey }), 200, 'rotate');
  t.not(rotated.secret, created.secret);
  t.is(rotated.previousSecretExpiresAt, '2026-11-24T12:00:00.000Z');
});
