import test from 'ava';
import Router from '@koa/router';
import { generateApiKey, hashApiKey } from '../../gateway/auth/api-keys.js';
import { canonicalCidrList } from '../../gateway/auth/cidr.js';
import { respond, type Envelope } from '../../gateway/envelope.js';
import { apiKeyAuth, type ApiKeyAccount, type AuthState } from '../../gateway/middleware/api-key.js';
import { clientIp } from '../../gateway/middleware/client-ip.js';
import { serveMiddleware } from './middleware-app.js';

interface Account extends ApiKeyAccount {
  name: string;
}

const LIVE_KEY = generateApiKey('LIVE');

function account(apiKeyIpAllowlist: string[]): Account {
  return {
    merchantId: 'mer_live',
    environment: 'LIVE',
    apiKeyIpAllowlist: canonicalCidrList(apiKeyIpAllowlist),
    apiKeyHash: hashApiKey(LIVE_KEY),
    name: 'Acme',
  };
}

async function serve(t: Parameters<typeof serveMiddleware>[0], lookup: (keyHash: string) => Promise<Account | null>) {
  const lookedUp: string[] = [];
  const app = await serveMiddleware(t, (app) => {
    app.use(clientIp(['127.0.0.1']));
    const router = new Router<AuthState<Account>>();
    router.use(
      apiKeyAuth((keyHash) => {
        lookedUp.push(keyHash);
        return lookup(keyHash);
      }),
    );
    router.get('/me', (ctx) => respond(ctx, 200, 'Merchant', { merchantId: ctx.state.account.merchantId, name: ctx.state.account.name }));
    app.use(router.routes());
  });
  return { ...app, lookedUp };
}

const withAllowlist = (entries: string[]) => async (keyHash: string) => (keyHash === hashApiKey(LIVE_KEY) ? account(entries) : null);
const request = (key: string | undefined, ip = '198.51.100.20'): RequestInit => ({
  headers: { 'x-forwarded-for': ip, ...(key === undefined ? {} : { 'x-api-key': key }) },
});

const authenticated: Envelope = { success: true, message: 'Merchant', responseObject: { merchantId: 'mer_live', name: 'Acme' }, statusCode: 200 };
const notAllowed: Envelope = { success: false, message: 'IP not allowed', responseObject: null, statusCode: 403, errorCode: 'IP_NOT_ALLOWED' };

test('a missing key is a 401 without a lookup', async (t) => {
  const app = await serve(t, withAllowlist([]));
  for (const init of [request(undefined), request('')]) {
    const response = await app.call('/me', init);
    t.is(response.status, 401);
    t.deepEqual(response.body, { success: false, message: 'Missing API key', responseObject: null, statusCode: 401 });
  }
  t.deepEqual(app.lookedUp, []);
});

test('an unknown key is a 401, looked up by its hash', async (t) => {
  const app = await serve(t, withAllowlist([]));
  const other = generateApiKey('LIVE');
  const response = await app.call('/me', request(other));
  t.is(response.status, 401);
  t.deepEqual(response.body, { success: false, message: 'Invalid API key', responseObject: null, statusCode: 401 });
  t.deepEqual(app.lookedUp, [hashApiKey(other)]);
});

test('a record whose stored hash is not the key hash does not authenticate', async (t) => {
  const app = await serve(t, async () => account([]));
  const response = await app.call('/me', request(generateApiKey('LIVE')));
  t.is(response.status, 401);
  t.deepEqual(response.body, { success: false, message: 'Invalid API key', responseObject: null, statusCode: 401 });
});

test('a known key puts the whole account record on the state and logs the merchant, never the key', async (t) => {
  const app = await serve(t, withAllowlist([]));
  const response = await app.call('/me', request(LIVE_KEY));
  t.is(response.status, 200);
  t.deepEqual(response.body, authenticated);
  t.false(app.logs.some((line) => line.includes(LIVE_KEY.slice(8))));
  const requestLine = app.logs.map((line) => JSON.parse(line) as { msg: string; merchantId?: string }).find((line) => line.msg === 'request');
  t.is(requestLine?.merchantId, 'mer_live');
});

test('an empty allowlist lets the key in from any address', async (t) => {
  const app = await serve(t, withAllowlist([]));
  for (const ip of ['203.0.113.250', '2001:db8::9']) {
    const response = await app.call('/me', request(LIVE_KEY, ip));
    t.is(response.status, 200, ip);
    t.deepEqual(response.body, authenticated, ip);
  }
});

test('an IPv4 allowlist lets its range in and refuses the rest with 403 IP_NOT_ALLOWED', async (t) => {
  const app = await serve(t, withAllowlist(['198.51.100.0/24', '203.0.113.7']));
  for (const ip of ['198.51.100.20', '203.0.113.7', '::ffff:198.51.100.99']) {
    const response = await app.call('/me', request(LIVE_KEY, ip));
    t.is(response.status, 200, ip);
    t.deepEqual(response.body, authenticated, ip);
  }
  for (const ip of ['198.51.101.1', '203.0.113.8', '2001:db8::1']) {
    const response = await app.call('/me', request(LIVE_KEY, ip));
    t.is(response.status, 403, ip);
    t.deepEqual(response.body, notAllowed, ip);
  }
});

test('an IPv6 allowlist lets its range in and refuses the rest, IPv4 included', async (t) => {
  const app = await serve(t, withAllowlist(['2001:DB8:AB::/48']));
  const inside = await app.call('/me', request(LIVE_KEY, '2001:db8:ab:1::5'));
  t.is(inside.status, 200);
  t.deepEqual(inside.body, authenticated);
  for (const ip of ['2001:db8:ac::5', '198.51.100.20']) {
    const response = await app.call('/me', request(LIVE_KEY, ip));
    t.is(response.status, 403, ip);
    t.deepEqual(response.body, notAllowed, ip);
  }
});

test('an invalid key is refused before the allowlist is consulted', async (t) => {
  const app = await serve(t, withAllowlist(['10.0.0.0/8']));
  const response = await app.call('/me', request(generateApiKey('LIVE'), '198.51.100.20'));
  t.deepEqual(response.body, { success: false, message: 'Invalid API key', responseObject: null, statusCode: 401 });
});
