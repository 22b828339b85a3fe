import test from 'ava';
import { ConfigError, loadConfig } from '../../actors/config.js';
import { PrometheusMetrics } from '../../actors/metrics/index.js';
import { startMetricsServer } from '../../deploy/metrics-server.js';
import { parseExposition, sampleValue } from '../support/prometheus-text.js';
import { rawExchange, rawRequest } from '../support/raw-http.js';
import { notFound } from '../support/gateway.js';

test('the metrics server serves GET /metrics without a token, on loopback unless told otherwise', async (t) => {
  const metrics = new PrometheusMetrics();
  const server = await startMetricsServer({ port: 0, metrics });
  t.teardown(() => server.close());
  t.regex(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);

  metrics.ask('order', 'ok', 0.002);
  metrics.observe({ deadLetters: async () => 3 });
  const response = await rawRequest(server.url, { path: '/metrics' });
  t.is(response.status, 200);
  t.is(response.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  const families = parseExposition(response.text);
  t.is(sampleValue(families, 'peer_asks_total', { kind: 'order', outcome: 'ok' }), 1);
  t.is(sampleValue(families, 'peer_dead_letters_open'), 3);
  t.true(families.has('process_cpu_user_seconds_total'));

  const head = await rawRequest(server.url, { method: 'HEAD', path: '/metrics' });
  t.deepEqual([head.status, head.text], [200, '']);
});

test('the metrics server serves nothing else, and answers in the envelope', async (t) => {
  const server = await startMetricsServer({ host: '127.0.0.1', port: 0, metrics: new PrometheusMetrics({ defaultMetrics: false }) });
  t.teardown(() => server.close());
  for (const path of ['/', '/METRICS', '/metrics/', '/api/v1/openapi.json', '/internal/v1/merchants']) {
    const response = await rawRequest(server.url, { path });
    t.deepEqual([response.status, response.json], [404, notFound], path);
  }
  const post = await rawRequest(server.url, { method: 'POST', path: '/metrics', headers: { 'content-type': 'application/json' }, body: '{}' });
  t.is(post.status, 405);
  t.is(post.headers.allow, 'GET, HEAD, OPTIONS');
  t.is(post.json.errorCode, 'METHOD_NOT_ALLOWED');
  const malformed = await rawExchange(server.url, 'GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n');
  t.regex(malformed, /^HTTP\/1\.1 400 /);
  t.true(malformed.includes('"errorCode":"MALFORMED_REQUEST"'), 'what Node’s parser refuses is answered in the envelope too');
});

test('a failing scrape is a 500 in the envelope, without the cause', async (t) => {
  const server = await startMetricsServer({ port: 0, metrics: { contentType: 'text/plain', metrics: () => Promise.reject(new Error('secret detail')) } });
  t.teardown(() => server.close());
  const response = await rawRequest(server.url, { path: '/metrics' });
  t.is(response.status, 500);
  t.deepEqual(response.json, { success: false, message: 'Internal server error', responseObject: null, statusCode: 500, errorCode: 'INTERNAL_ERROR' });
});

test('close() stops it, with a scraper’s kept-alive connection open, and may be called twice', async (t) => {
  const server = await startMetricsServer({ port: 0, metrics: new PrometheusMetrics({ defaultMetrics: false }) });
  const kept = await fetch(`${server.url}/metrics`, { headers: { connection: 'keep-alive' } });
  t.is(kept.status, 200);
  await kept.text();
  await Promise.all([server.close(), server.close()]);
  await t.throwsAsync(fetch(`${server.url}/metrics`));
});

test('a port already taken refuses the start', async (t) => {
  const first = await startMetricsServer({ port: 0, metrics: new PrometheusMetrics({ defaultMetrics: false }) });
  t.teardown(() => first.close());
  const port = Number(new URL(first.url).port);
  await t.throwsAsync(startMetricsServer({ port, metrics: new PrometheusMetrics({ defaultMetrics: false }) }), { code: 'EADDRINUSE' });
});

test('METRICS_PORT is off unless set, an integer port; METRICS_HOST is loopback unless set', (t) => {
  const defaults = loadConfig({});
  t.is(defaults.METRICS_PORT, undefined);
  t.is(defaults.METRICS_HOST, '127.0.0.1');
  const set = loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' });
  t.deepEqual([set.METRICS_PORT, set.METRICS_HOST], [9464, '10.0.0.5']);
  t.is(loadConfig({ METRICS_PORT: '' }).METRICS_PORT, undefined, 'empty is unset');
  for (const bad of ['metrics', '9464.5', '70000', '-1']) {
    t.throws(() => loadConfig({ METRICS_PORT: bad }), { instanceOf: ConfigError, message: /METRICS_PORT/ }, bad);
  }
});
