/**
 * Walks every route the gateway registers (`node.routes`, read from the routers, not
 * a list kept here) and tries each with every kind of wrong credentials and every
 * other spelling of its path. What a route demands is read from its `security` in the
 * served OpenAPI document, so a new route is walked without editing this file, and
 * the document must describe every route the app serves (and nothing it does not).
 */
import test from 'ava';
import fc from 'fast-check';
import type { GatewayRoute } from '../../gateway/index.js';
import { ADMIN_TOKEN, startTestGateway, type TestGateway, missingToken, invalidToken, notFound } from '../support/gateway.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';
import { signIn } from '../support/maker-sign-in.js';
import { untilListed } from '../support/merchant-events.js';
import { CaughtDashboardMail, cookieOf } from '../support/dashboard.js';
import { disputeActorId, disputeKind } from '../../actors/kinds/dispute-kind.js';
import type { DisputeInput } from '../../machines/dispute/index.js';

/**
 * `sandbox`: a merchant operation for the sandbox key (x-key-environment), whose other environment is live.
 * `session`: a merchant dashboard session only (an API key is refused); an operation taking the key or a session is `merchant`.
 */
type Access = 'public' | 'merchant' | 'sandbox' | 'admin' | 'maker' | 'session';

interface Operation {
  security?: Array<Record<string, unknown>>;
  'x-key-environment'?: 'SANDBOX';
  requestBody?: unknown;
  parameters?: Array<{ in: string; name: string; schema: { pattern?: string } }>;
}

interface Fixture {
  gateway: TestGateway;
  openapi: { paths: Record<string, Record<string, Operation>> };
  merchant: Awaited<ReturnType<TestGateway['createMerchant']>>;
  other: Awaited<ReturnType<TestGateway['createMerchant']>>;
  orderId: string;
  sandboxOrderId: string;
  /** A live dispute of the merchant over its order: another account's key must find none of it. */
  disputeId: string;
  /** A signed-in maker's bearer token. */
  makerToken: string;
  /** The merchant's Owner's dashboard session cookie. */
  sessionCookie: string;
}

const missingKey = { success: false, message: 'Missing API key', responseObject: null, statusCode: 401 };
const invalidKey = { success: false, message: 'Invalid API key', responseObject: null, statusCode: 401 };
const missingBearer = { success: false, message: 'Missing bearer token', responseObject: null, statusCode: 401, errorCode: 'TOKEN_MISSING' };
const invalidBearer = { success: false, message: 'Invalid bearer token', responseObject: null, statusCode: 401, errorCode: 'TOKEN_INVALID' };
const missingSession = { success: false, message: 'Missing dashboard session', responseObject: null, statusCode: 401, errorCode: 'SESSION_REQUIRED' };
const invalidSession = { success: false, message: 'Invalid dashboard session', responseObject: null, statusCode: 401, errorCode: 'SESSION_INVALID' };
const keyRefused = {
  success: false,
  message: 'Not available to an API key: sign in to the dashboard',
  responseObject: null,
  statusCode: 403,
  errorCode: 'API_KEY_NOT_ALLOWED',
};

async function fixture(): Promise<Fixture> {
  // Every route times every spelling and credential is well over the default 1200 requests a minute from one address.
  const mail = new CaughtDashboardMail();
  const gateway = await startTestGateway({ RATE_LIMIT_PER_MINUTE: 1_000_000 }, { dashboardMail: mail });
  const merchant = await gateway.createMerchant();
  await gateway.admin('POST', `/internal/v1/merchants/${merchant.liveId}/owners`, { email: 'owner@acme.example' });
  await gateway.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email: 'owner@acme.example' } });
  const signedIn = await gateway.request('POST', '/api/v1/dashboard/sign-in', {
    body: { email: 'owner@acme.example', code: mail.codeFor('owner@acme.example') },
  });
  const other = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x2222222222222222222222222222222222222222' });
  const order = await gateway.request('POST', '/api/v1/orders', { key: merchant.liveKey, body: { requestedUsdcAmount: '10', notes: { secret: 'live' } } });
  const sandboxOrder = await gateway.request('POST', '/api/v1/orders', { key: merchant.sandboxKey, body: { requestedUsdcAmount: '10' } });
  const disputeId = await liveDispute(gateway, merchant.liveId, order.body.responseObject.order.id);
  // Their events published and the removals from the outboxes saved: from here nothing but a request changes these records.
  await gateway.node.system.effectsIdle();
  // And recorded in the event log, so another key's event list has the merchant's events to leak, were it to.
  await untilListed(gateway, merchant.liveKey, 1);
  const openapi = (await gateway.request('GET', '/api/v1/openapi.json')).body as unknown as Fixture['openapi'];
  const { token: makerToken } = await signIn(gateway);
  return {
    gateway,
    openapi,
    merchant,
    other,
    orderId: order.body.responseObject.order.id,
    sandboxOrderId: sandboxOrder.body.responseObject.order.id,
    disputeId,
    makerToken,
    sessionCookie: cookieOf(signedIn),
  };
}

/** A live dispute of the merchant over its order, opened on the actor (a live opening needs the attestation service: test/gateway/disputes/live-disputes.test.ts). */
async function liveDispute(gateway: TestGateway, merchantId: string, orderId: string): Promise<string> {
  const id = disputeActorId('venmo', 'VD-ROUTES-1');
  const opening: Omit<DisputeInput, 'id'> = {
    disputeId: 'VD-ROUTES-1',
    platform: 'venmo',
    source: 'ATTESTATION',
    orderId,
    paymentId: 'pay_routes000000000000000001',
    intentHash: `0x${'1'.repeat(64)}`,
    merchantId,
    environment: 'LIVE',
    rail: 'venmo',
    amountUsdc: 10_000_000n,
    caseAmountCents: 1000n,
    caseCurrency: 'USD',
    sellerAddress: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
    stakeStatusAtOpen: 'UNPROTECTED',
    fulfillTxHash: null,
    at: new Date(gateway.clock.now()).toISOString(),
    dueAt: new Date(gateway.clock.now() + 7 * 24 * 3_600_000).toISOString(),
  };
  await gateway.node.system.ask(disputeKind, id, { type: 'OPEN', ...opening });
  return id;
}

/** `/api/v1/orders/:orderId` → `/api/v1/orders/{orderId}`; HEAD is documented as GET. */
function operationOf(f: Fixture, route: GatewayRoute): Operation | undefined {
  const path = route.path.replace(/:(\w+)/g, '{$1}');
  return f.openapi.paths[path]?.[route.method === 'HEAD' ? 'get' : route.method.toLowerCase()];
}

function accessOf(operation: Operation): Access {
  const schemes = (operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('adminToken')) return 'admin';
  if (schemes.includes('makerToken')) return 'maker';
  if (schemes.includes('apiKey')) return operation['x-key-environment'] === 'SANDBOX' ? 'sandbox' : 'merchant';
  if (schemes.includes('dashboardSession')) return 'session';
  return 'public';
}

/** The route's path with the merchant's own resources in it; a parameter of a kind not seen here gets a well-formed id from its schema. */
function canonicalPath(f: Fixture, route: GatewayRoute, operation: Operation): string {
  const known: Record<string, string> = { merchantId: f.merchant.liveId, orderId: f.orderId, disputeId: f.disputeId };
  return route.path.replace(/:(\w+)/g, (_, name: string) => {
    if (known[name]) return known[name];
    const pattern = operation.parameters?.find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema.pattern;
    if (!pattern) throw new Error(`${route.method} ${route.path}: path parameter ${name} has no pattern in the OpenAPI document`);
    return fc.sample(fc.stringMatching(new RegExp(pattern)), { numRuns: 1, seed: 1 })[0]!;
  });
}

/** Spellings of a path that are not that path under the exact-path rule. */
function otherSpellings(path: string): Record<string, string> {
  const [, first = '', ...rest] = path.split('/');
  const tail = rest.length > 0 ? `/${rest.join('/')}` : '';
  return {
    'upper case': path.toUpperCase(),
    'mixed case': `/${first.charAt(0).toUpperCase()}${first.slice(1)}${tail}`,
    'trailing slash': `${path}/`,
    'doubled slash': tail ? `/${first}/${tail}` : `/${path}`,
    'leading doubled slash': `/${path}`,
    'percent-encoded': `/%${first.charCodeAt(0).toString(16)}${first.slice(1)}${tail}`,
  };
}

/** The same path with the `_` of each id percent-encoded: the same resource, RFC 3986 says, so the same answer. */
function encodedIds(path: string): string {
  return path.replace(/\/([a-z]{3})_([0-9A-Za-z]{24})(?=\/|$)/g, '/$1%5F$2');
}

async function call(f: Fixture, method: string, path: string, headers: Record<string, string>, operation: Operation): Promise<RawResponse> {
  const withBody = operation.requestBody !== undefined;
  return rawRequest(f.gateway.url, {
    method,
    path,
    headers: withBody ? { ...headers, 'content-type': 'application/json' } : headers,
    body: withBody ? '{}' : undefined,
  });
}

/** Everything stored about the merchant's live and sandbox accounts, to show a refused request changed none of it. */
async function merchantState(f: Fixture): Promise<string> {
  const ids = [f.merchant.liveId, f.merchant.sandboxId];
  const merchants = await f.gateway.node.system.documents('merchant').find({ _id: { $in: ids } }, { sort: { _id: 1 } });
  const orders = await f.gateway.node.system.documents('order').find({ 'view.merchantId': { $in: ids } }, { sort: { _id: 1 } });
  const disputes = await f.gateway.node.system.documents('dispute').find({ 'view.merchantId': { $in: ids } }, { sort: { _id: 1 } });
  return JSON.stringify([merchants, orders, disputes]);
}

function credentialCases(f: Fixture, access: Access): Array<[name: string, headers: Record<string, string>, expected: unknown]> {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  if (access === 'admin') {
    return [
      ['no credentials', {}, missingToken],
      ['a wrong token', bearer(`${ADMIN_TOKEN}x`), invalidToken],
      ["the merchant's API key", { 'x-api-key': f.merchant.liveKey }, missingToken],
      ["the merchant's API key as the bearer", bearer(f.merchant.liveKey), invalidToken],
      ["another merchant's API key", { 'x-api-key': f.other.liveKey }, missingToken],
      ["the other environment's API key", { 'x-api-key': f.merchant.sandboxKey }, missingToken],
    ];
  }
  if (access === 'maker') {
    return [
      ['no credentials', {}, missingBearer],
      ['a wrong token', bearer(`pmt_${'A'.repeat(43)}`), invalidBearer],
      ['the admin token', bearer(ADMIN_TOKEN), invalidBearer],
      ["the merchant's API key", { 'x-api-key': f.merchant.liveKey }, missingBearer],
      ["the merchant's API key as the bearer", bearer(f.merchant.liveKey), invalidBearer],
    ];
  }
  if (access === 'session') {
    return [
      ['no credentials', {}, missingSession],
      ['a made-up session cookie', { cookie: `peer_dashboard_session=pds_${'A'.repeat(43)}` }, invalidSession],
      ['a malformed session cookie', { cookie: 'peer_dashboard_session=x' }, invalidSession],
      ['the admin token', bearer(ADMIN_TOKEN), missingSession],
      ["the merchant's API key", { 'x-api-key': f.merchant.liveKey }, keyRefused],
      ["the merchant's API key beside its session", { 'x-api-key': f.merchant.liveKey, cookie: f.sessionCookie }, keyRefused],
      ["another merchant's key", { 'x-api-key': f.other.liveKey }, keyRefused],
    ];
  }
  return [
    ['no credentials', {}, missingKey],
    ['a wrong key', { 'x-api-key': 'pk_live_00000000000000000000000000000000000000000000' }, invalidKey],
    ['the admin token instead of a key', bearer(ADMIN_TOKEN), missingKey],
    // Answered, but only with the caller's own account: checked by what the answer leaks, not by its status.
    ["another merchant's key", { 'x-api-key': f.other.liveKey }, undefined],
    ["the other environment's key", { 'x-api-key': access === 'sandbox' ? f.merchant.liveKey : f.merchant.sandboxKey }, undefined],
  ];
}

function validCredentials(f: Fixture, access: Access): Record<string, string> {
  if (access === 'admin') return { authorization: `Bearer ${ADMIN_TOKEN}` };
  if (access === 'merchant') return { 'x-api-key': f.merchant.liveKey };
  if (access === 'maker') return { authorization: `Bearer ${f.makerToken}` };
  if (access === 'sandbox') return { 'x-api-key': f.merchant.sandboxKey };
  if (access === 'session') return { cookie: f.sessionCookie };
  return {};
}

test('every registered route is described by the OpenAPI document, and every described operation is served', async (t) => {
  const f = await fixture();
  try {
    t.true(f.gateway.node.routes.length >= 8, 'the routes are read from the routers');
    for (const route of f.gateway.node.routes) t.truthy(operationOf(f, route), `${route.method} ${route.path} is not in the OpenAPI document`);
    for (const [path, operations] of Object.entries(f.openapi.paths)) {
      for (const method of Object.keys(operations)) {
        const template = path.replace(/\{(\w+)\}/g, ':$1');
        t.true(
          f.gateway.node.routes.some((route) => route.path === template && route.method === method.toUpperCase()),
          `${method.toUpperCase()} ${path} is documented but not served`,
        );
      }
    }
  } finally {
    await f.gateway.stop();
  }
});

test('every guarded route refuses every wrong credential exactly, and leaks and changes nothing of another account', async (t) => {
  const f = await fixture();
  try {
    const before = await merchantState(f);
    let guarded = 0;
    for (const route of f.gateway.node.routes) {
      const operation = operationOf(f, route)!;
      const access = accessOf(operation);
      if (access === 'public') continue;
      guarded++;
      const path = canonicalPath(f, route, operation);
      for (const [name, headers, expected] of credentialCases(f, access)) {
        const label = `${route.method} ${path} with ${name}`;
        const response = await call(f, route.method, path, headers, operation);
        if (expected !== undefined) {
          t.is(response.status, (expected as { statusCode: number }).statusCode, label);
          if (route.method !== 'HEAD') t.deepEqual(response.json, expected, label);
        } else {
          t.true(response.status < 500, label);
          for (const secret of [f.merchant.liveId, f.orderId, 'VD-ROUTES-1', 'live"']) t.false(response.text.includes(secret), `${label} leaks ${secret}`);
          if (name.includes('environment'))
            t.false(response.text.includes((access === 'sandbox' ? f.merchant.sandboxKey : f.merchant.liveKey).slice(-4)), label);
        }
        t.is(await merchantState(f), before, `${label} changed the merchant's records`);
      }
    }
    t.true(guarded >= 6);
    // The dashboard's session-only routes are walked too: read from the document, not listed here.
    t.true(f.gateway.node.routes.filter((route) => accessOf(operationOf(f, route)!) === 'session').length >= 11);
  } finally {
    await f.gateway.stop();
  }
});

test('no other spelling of a route’s path is served, for any caller, and an encoded id is the same path', async (t) => {
  const f = await fixture();
  try {
    const before = await merchantState(f);
    for (const route of f.gateway.node.routes) {
      const operation = operationOf(f, route)!;
      const access = accessOf(operation);
      const path = canonicalPath(f, route, operation);
      // A public route inside /internal (the engineers' page) is served ahead of the guard under its exact path only.
      const inAdminArea = access === 'admin' || route.path.startsWith('/internal/');
      for (const [spelling, variant] of Object.entries(otherSpellings(path))) {
        // `/` has no letters to change case of: that spelling is the path itself.
        if (variant === path) continue;
        for (const [who, headers] of [
          ['no credentials', {}],
          ['valid credentials', validCredentials(f, inAdminArea ? 'admin' : access)],
        ] as const) {
          const label = `${route.method} ${variant} (${spelling}) with ${who}`;
          const response = await call(f, route.method, variant, headers, operation);
          // The admin area's guard answers first for every spelling of /internal; past it, the path is unknown.
          const expected = inAdminArea && who === 'no credentials' ? missingToken : notFound;
          t.is(response.status, expected.statusCode, label);
          if (route.method !== 'HEAD') t.deepEqual(response.json, expected, label);
          t.is(await merchantState(f), before, `${label} changed the merchant's records`);
        }
      }
      // Makers' paths carry chain keys and request UUIDs, not prefixed ids; other named parameters (a machine's name) neither.
      const takesIds = operation.parameters?.some((parameter) => parameter.in === 'path' && /^\^[a-z]{3}_/.test(parameter.schema.pattern ?? ''));
      if (takesIds && access !== 'public' && access !== 'maker') {
        const encoded = encodedIds(path);
        t.not(encoded, path);
        for (const [name, headers] of credentialCases(f, access)) {
          const label = `${route.method} ${encoded} with ${name}`;
          const [canonical, response] = [await call(f, route.method, path, headers, operation), await call(f, route.method, encoded, headers, operation)];
          t.is(response.status, canonical.status, label);
          if (canonical.status === 401 || canonical.status === 403) t.deepEqual(response.json, canonical.json, label);
        }
      }
    }
  } finally {
    await f.gateway.stop();
  }
});

test('with no admin token configured, every admin route answers exactly as an unknown path does', async (t) => {
  const f = await fixture();
  const off = await startTestGateway({ PEER_ADMIN_TOKEN: undefined });
  try {
    const adminRoutes = f.gateway.node.routes.filter((route) => accessOf(operationOf(f, route)!) === 'admin');
    t.true(adminRoutes.length >= 3);
    t.false(
      off.node.routes.some((route) => route.path.startsWith('/internal')),
      'the admin routes are not mounted',
    );
    for (const route of adminRoutes) {
      const operation = operationOf(f, route)!;
      const path = canonicalPath(f, route, operation);
      const unknown = await call({ ...f, gateway: off }, route.method, '/no-such-path', {}, operation);
      for (const variant of [path, ...Object.values(otherSpellings(path))]) {
        const response = await call({ ...f, gateway: off }, route.method, variant, { authorization: `Bearer ${ADMIN_TOKEN}` }, operation);
        t.deepEqual(
          [response.status, response.json, response.headers.allow],
          [unknown.status, unknown.json, unknown.headers.allow],
          `${route.method} ${variant}`,
        );
      }
    }
  } finally {
    await Promise.all([f.gateway.stop(), off.stop()]);
  }
});
