import test from 'ava';
import Router from '@koa/router';
import { respond } from '../../gateway/envelope.js';
import { clientIp, type ClientIpState } from '../../gateway/middleware/client-ip.js';
import { rateLimit } from '../../gateway/middleware/rate-limit.js';
import { serveMiddleware } from './middleware-app.js';

const PER_MINUTE = 5;

function serve(t: Parameters<typeof serveMiddleware>[0]) {
  return serveMiddleware(t, (app) => {
    app.use(clientIp(['127.0.0.1']));
    app.use(rateLimit({ perMinute: PER_MINUTE }));
    const router = new Router<ClientIpState>();
    router.get('/ping', (ctx) => respond(ctx, 200, 'pong', null));
    app.use(router.routes());
  });
}

const from = (ip: string): RequestInit => ({ headers: { 'x-forwarded-for': ip } });

function resetsAt(headers: Headers, t: Parameters<typeof serveMiddleware>[0], before: number): number {
  const text = headers.get('x-rate-limiter-resets-at') ?? '';
  t.regex(text, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  const at = Date.parse(text);
  t.true(at > before && at <= Date.now() + 60_000, text);
  return at;
}

test('the budget counts down on every response, and the request past it is a 429', async (t) => {
  const app = await serve(t);
  const started = Date.now();
  for (let sent = 1; sent <= PER_MINUTE; sent++) {
    const response = await app.call('/ping', from('198.51.100.1'));
    t.is(response.status, 200);
    t.deepEqual(response.body, { success: true, message: 'pong', responseObject: null, statusCode: 200 });
    t.is(response.headers.get('x-rate-limit-remaining'), String(PER_MINUTE - sent));
    resetsAt(response.headers, t, started);
    t.is(response.headers.get('x-retry-after'), null);
  }
  const refused = await app.call('/ping', from('198.51.100.1'));
  t.is(refused.status, 429);
  t.deepEqual(refused.body, { success: false, message: 'Too many requests', responseObject: null, statusCode: 429 });
  t.is(refused.headers.get('x-rate-limit-remaining'), '0');
  const reset = resetsAt(refused.headers, t, started);
  const retryAfter = refused.headers.get('x-retry-after') ?? '';
  t.regex(retryAfter, /^\d+$/);
  t.true(Number(retryAfter) >= 1 && Number(retryAfter) <= 60, retryAfter);
  t.true(Math.abs(reset - (Date.now() + Number(retryAfter) * 1000)) <= 2_000, 'retry-after points at the reset');
  t.is(refused.headers.get('retry-after'), null, 'no standard Retry-After');
});

test('error responses count and carry the headers too', async (t) => {
  const app = await serve(t);
  const missing = await app.call('/no-such-route', from('198.51.100.2'));
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { success: false, message: 'Not found', responseObject: null, statusCode: 404, errorCode: 'NOT_FOUND' });
  t.is(missing.headers.get('x-rate-limit-remaining'), String(PER_MINUTE - 1));
  t.truthy(missing.headers.get('x-rate-limiter-resets-at'));
});

test('each client address has its own budget', async (t) => {
  const app = await serve(t);
  for (let sent = 0; sent <= PER_MINUTE; sent++) await app.call('/ping', from('203.0.113.10'));
  const spent = await app.call('/ping', from('203.0.113.10'));
  t.is(spent.status, 429);
  t.deepEqual(spent.body, { success: false, message: 'Too many requests', responseObject: null, statusCode: 429 });
  const other = await app.call('/ping', from('203.0.113.11'));
  t.is(other.status, 200);
  t.deepEqual(other.body, { success: true, message: 'pong', responseObject: null, statusCode: 200 });
  t.is(other.headers.get('x-rate-limit-remaining'), String(PER_MINUTE - 1));
  const mapped = await app.call('/ping', from('::ffff:203.0.113.10'));
  t.is(mapped.status, 429, 'IPv4-mapped IPv6 is the same client as its IPv4 address');
});

test('IPv6 clients are counted per /64', async (t) => {
  const app = await serve(t);
  for (let sent = 0; sent < PER_MINUTE; sent++) await app.call('/ping', from(`2001:db8:1:2::${sent + 1}`));
  const sameSubnet = await app.call('/ping', from('2001:db8:1:2:ffff::9'));
  t.is(sameSubnet.status, 429);
  t.deepEqual(sameSubnet.body, { success: false, message: 'Too many requests', responseObject: null, statusCode: 429 });
  const nextSubnet = await app.call('/ping', from('2001:db8:1:3::1'));
  t.is(nextSubnet.status, 200);
  t.deepEqual(nextSubnet.body, { success: true, message: 'pong', responseObject: null, statusCode: 200 });
  t.is(nextSubnet.headers.get('x-rate-limit-remaining'), String(PER_MINUTE - 1));
});
