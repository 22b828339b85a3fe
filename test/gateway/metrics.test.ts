/**
 * GET /metrics on the gateway: a gateway over an embedded actor system wired as a node
 * wires it (PrometheusMetrics given to the system, the store instrumented), so what a
 * request does shows in the scrape; behind the admin token like the admin API.
 */
import test, { type ExecutionContext } from 'ava';
import { EmbeddedStore, TestClock } from '../../actors/index.js';
import { merchantKind, orderKind } from '../../actors/kinds/index.js';
import { PrometheusMetrics, instrumentStore } from '../../actors/metrics/index.js';
import type { GatewayRoute } from '../../gateway/index.js';
import type { MetricsSource } from '../../gateway/service/metrics-operations.js';
import { ADMIN_TOKEN, missingToken, invalidToken, bearer, notFound } from '../support/gateway.js';
import { serveGateway } from '../support/gateway-app.js';
import { parseExposition, sampleValue } from '../support/prometheus-text.js';
import { rawRequest } from '../support/raw-http.js';
import { startTestSystem } from '../support/test-node.js';

interface Fixture {
  url: string;
  routes: GatewayRoute[];
  metrics: PrometheusMetrics;
}

async function start(t: ExecutionContext, options: { adminToken?: string | undefined; metrics?: MetricsSource | null } = {}): Promise<Fixture> {
  const metrics = new PrometheusMetrics();
  const store = instrumentStore(new EmbeddedStore(), metrics);
  const { system, bus, clock } = await startTestSystem({
    kinds: [merchantKind, orderKind],
    store,
    clock: new TestClock(Date.UTC(2026, 10, 23, 12)),
    metrics,
  });
  t.teardown(async () => {
    await system.drain();
    await bus.close();
    await store.close();
  });
  const served = await serveGateway(
    t,
    { system, store, bus, clock },
    {
      adminToken: 'adminToken' in options ? options.adminToken : ADMIN_TOKEN,
      ...(options.metrics === null ? {} : { metrics: options.metrics ?? metrics }),
    },
  );
  return { ...served, metrics };
}

test('without the token, or with a wrong one, /metrics is a 401 in the envelope', async (t) => {
  const f = await start(t);
  for (const [headers, expected] of [
    [{}, missingToken],
    [bearer(`${ADMIN_TOKEN}x`), invalidToken],
    [{ authorization: `Basic ${Buffer.from(`admin:${ADMIN_TOKEN}`).toString('base64')}` }, missingToken],
    [{ 'x-api-key': ADMIN_TOKEN }, missingToken],
  ] as const) {
    const response = await rawRequest(f.url, { path: '/metrics', headers });
    t.is(response.status, 401, JSON.stringify(headers));
    t.deepEqual(response.json, expected);
    t.is(response.headers['www-authenticate'], 'Bearer');
    t.regex(String(response.headers['content-type']), /^application\/json/);
    t.false(response.text.includes('peer_'), 'nothing of the metrics leaks');
  }
});

test('with the token, /metrics answers the Prometheus text, and what the API did shows in it', async (t) => {
  const f = await start(t);
  const created = await rawRequest(f.url, {
    method: 'POST',
    path: '/internal/v1/merchants',
    headers: { ...bearer(ADMIN_TOKEN), 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Acme', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' }),
  });
  t.is(created.status, 201);

  const response = await rawRequest(f.url, { path: '/metrics', headers: bearer(ADMIN_TOKEN) });
  t.is(response.status, 200);
  t.is(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  t.is(response.headers['cache-control'], 'no-store');
  const families = parseExposition(response.text);
  t.true(sampleValue(families, 'peer_asks_total', { kind: 'merchant', outcome: 'ok' }) >= 2, 'the live account and its sandbox twin were asks');
  t.true(sampleValue(families, 'peer_turns_total', { kind: 'merchant', outcome: 'applied' }) >= 2);
  t.true(
    families.get('peer_store_operation_duration_seconds')!.samples.some((sample) => sample.labels.operation === 'insert'),
    'store writes were timed',
  );
  t.is(sampleValue(families, 'peer_outbox_pending'), 0, 'the system’s gauges are read at scrape time');
  t.is(sampleValue(families, 'peer_dead_letters_open'), 0);
  t.true(families.has('nodejs_heap_size_used_bytes'));
  for (const id of [created.json.responseObject.merchant.id, created.json.responseObject.sandboxMerchant.id])
    t.false(response.text.includes(id), 'no actor id is a label');

  const head = await rawRequest(f.url, { method: 'HEAD', path: '/metrics', headers: bearer(ADMIN_TOKEN) });
  t.is(head.status, 200);
  t.is(head.text, '');
});

test('other methods and other spellings of /metrics: 401 before the token, then 405 or an unknown path', async (t) => {
  const f = await start(t);
  for (const path of ['/METRICS', '/Metrics', '/metrics/', '//metrics', '/%6detrics', '/metrics/extra', '/api/../metrics']) {
    const refused = await rawRequest(f.url, { path });
    t.deepEqual([refused.status, refused.json], [401, missingToken], path);
    const unknown = await rawRequest(f.url, { path, headers: bearer(ADMIN_TOKEN) });
    t.deepEqual([unknown.status, unknown.json], [404, notFound], path);
  }
  const post = await rawRequest(f.url, { method: 'POST', path: '/metrics', headers: bearer(ADMIN_TOKEN) });
  t.is(post.status, 405);
  t.is(post.json.errorCode, 'METHOD_NOT_ALLOWED');
  t.is(post.headers.allow, 'GET, HEAD, OPTIONS');
  t.deepEqual((await rawRequest(f.url, { method: 'POST', path: '/metrics' })).json, missingToken, 'the guard answers first, whatever the method');
  t.is((await rawRequest(f.url, { path: '/metricsfoo' })).status, 404, 'a longer name is another path, outside the guard');
});

test('a scrape that fails is a 500 in the envelope', async (t) => {
  const f = await start(t, {
    metrics: { contentType: 'text/plain; version=0.0.4; charset=utf-8', metrics: () => Promise.reject(new Error('registry broken')) },
  });
  const response = await rawRequest(f.url, { path: '/metrics', headers: bearer(ADMIN_TOKEN) });
  t.is(response.status, 500);
  t.deepEqual(response.json, { success: false, message: 'Internal server error', responseObject: null, statusCode: 500, errorCode: 'INTERNAL_ERROR' });
  t.false(response.text.includes('registry broken'));
});

test('without an admin token the route is not mounted: /metrics answers as an unknown path', async (t) => {
  const f = await start(t, { adminToken: undefined });
  t.false(f.routes.some((route) => route.path === '/metrics'));
  for (const headers of [{}, bearer(ADMIN_TOKEN)]) {
    const [metrics, unknown] = [await rawRequest(f.url, { path: '/metrics', headers }), await rawRequest(f.url, { path: '/no-such-path', headers })];
    t.deepEqual([metrics.status, metrics.json], [unknown.status, unknown.json]);
    t.deepEqual(metrics.json, notFound);
  }
});

test('the OpenAPI document describes /metrics, admin-secured and text/plain, exactly when the gateway has metrics', async (t) => {
  const [withMetrics, without] = [await start(t), await start(t, { metrics: null })];
  const documentOf = async (url: string) => (await rawRequest(url, { path: '/api/v1/openapi.json' })).json as { paths: Record<string, any> };

  const operation = (await documentOf(withMetrics.url)).paths['/metrics']?.get;
  t.deepEqual(operation?.security, [{ adminToken: [] }]);
  t.truthy(operation?.responses['200'].content['text/plain']);
  t.truthy(operation?.responses['401'].content['application/json']);
  t.deepEqual(
    withMetrics.routes
      .filter((route) => route.path === '/metrics')
      .map((route) => route.method)
      .sort(),
    ['GET', 'HEAD'],
  );

  t.is((await documentOf(without.url)).paths['/metrics'], undefined);
  t.false(without.routes.some((route) => route.path === '/metrics'));
});

test('requests are counted by the route template that served them, never by the path as sent', async (t) => {
  const f = await start(t);
  const orderId = 'ord_7Hq2xLmN4pQrStUv';
  const refused = await rawRequest(f.url, { path: `/api/v1/orders/${orderId}` });
  t.true(refused.status >= 400 && refused.status < 500, 'refused without an API key');
  t.is((await rawRequest(f.url, { path: '/v1/health-check' })).status, 200);
  t.is((await rawRequest(f.url, { path: `/no/such/${orderId}` })).status, 404);
  t.is((await rawRequest(f.url, { method: 'PROPFIND', path: '/v1/health-check' })).status, 501);

  const response = await rawRequest(f.url, { path: '/metrics', headers: bearer(ADMIN_TOKEN) });
  const families = parseExposition(response.text);
  t.is(sampleValue(families, 'peer_http_requests_total', { route: '/api/v1/orders/:orderId', method: 'GET', status_class: '4xx' }), 1);
  t.is(sampleValue(families, 'peer_http_requests_total', { route: '/v1/health-check', method: 'GET', status_class: '2xx' }), 1);
  t.is(sampleValue(families, 'peer_http_requests_total', { route: 'unmatched', method: 'GET', status_class: '4xx' }), 1);
  t.is(sampleValue(families, 'peer_http_requests_total', { route: 'unmatched', method: 'OTHER', status_class: '5xx' }), 1);
  t.is(sampleValue(families, 'peer_http_request_duration_seconds_count', { route: '/api/v1/orders/:orderId', method: 'GET' }), 1);
  t.false(response.text.includes(orderId), 'no id the caller sent is a label');
  t.is(sampleValue(families, 'peer_mailbox_depth', { kind: 'merchant' }), 0, 'every registered kind has a mailbox series');
  t.is(sampleValue(families, 'peer_timers_armed'), 0);
  t.is(sampleValue(families, 'peer_timers_due'), 0);
});
