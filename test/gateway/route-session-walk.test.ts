/**
 * Walks every route a dashboard session reaches (session-only, or the API key or a session),
 * read from the routers and the served OpenAPI document as route-authorization.test.ts does,
 * with the session refusals that test leaves out: a session without its CSRF token on a call
 * that changes something, a Cashier on a route that documents ROLE_NOT_ALLOWED, and an
 * expired session. Each is refused exactly as the guard documents, and changes nothing.
 */
import test from 'ava';
import fc from 'fast-check';
import type { GatewayRoute } from '../../gateway/index.js';
import { SESSION_IDLE_MS } from '../../machines/dashboard-session/index.js';
import { rawRequest } from '../support/raw-http.js';
import { type DashboardSession, type DashboardWorld, dashboardWorld } from '../support/dashboard.js';
import { CSRF_HEADER } from '../../gateway/dashboard/session-tokens.js';

interface Operation {
  security?: Array<Record<string, unknown>>;
  requestBody?: unknown;
  parameters?: Array<{ in: string; name: string; schema: { pattern?: string } }>;
  responses?: Record<string, unknown>;
}

interface SessionRoute {
  route: GatewayRoute;
  operation: Operation;
  path: string;
  changes: boolean;
}

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Every served route whose operation a session may call, with the merchant's own ids in its path. */
async function sessionRoutes(world: DashboardWorld, known: Record<string, string>): Promise<SessionRoute[]> {
  const openapi = (await world.gateway.request('GET', '/api/v1/openapi.json')).body as unknown as { paths: Record<string, Record<string, Operation>> };
  const routes: SessionRoute[] = [];
  for (const route of world.gateway.node.routes) {
    const operation = openapi.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method === 'HEAD' ? 'get' : route.method.toLowerCase()];
    const schemes = (operation?.security ?? []).flatMap((requirement) => Object.keys(requirement));
    if (!operation || !schemes.includes('dashboardSession')) continue;
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
      if (known[name]) return known[name];
      const pattern = operation.parameters?.find((parameter) => parameter.in === 'path' && parameter.name === name)?.schema.pattern;
      if (!pattern) throw new Error(`${route.method} ${route.path}: path parameter ${name} has no pattern`);
      return fc.sample(fc.stringMatching(new RegExp(pattern)), { numRuns: 1, seed: 1 })[0]!;
    });
    routes.push({ route, operation, path, changes: CHANGES.has(route.method) });
  }
  return routes;
}

function call(world: DashboardWorld, { route, operation, path }: SessionRoute, session: DashboardSession, csrf: boolean) {
  const headers: Record<string, string> = { cookie: session.cookie };
  if (csrf) headers[CSRF_HEADER] = session.csrfToken;
  if (operation.requestBody !== undefined) headers['content-type'] = 'application/json';
  return rawRequest(world.gateway.url, { method: route.method, path, headers, body: operation.requestBody === undefined ? undefined : '{}' });
}

async function businessState(world: DashboardWorld, ids: string[]): Promise<string> {
  const system = world.gateway.node.system;
  const merchants = await system.documents('merchant').find({ _id: { $in: ids } }, { sort: { _id: 1 } });
  const orders = await system.documents('order').find({ 'view.merchantId': { $in: ids } }, { sort: { _id: 1 } });
  return JSON.stringify([merchants, orders]);
}

test('every route a session reaches refuses a missing CSRF token, a cashier where it documents ROLE_NOT_ALLOWED, and an expired session, changing nothing', async (t) => {
  const world = await dashboardWorld(t, { RATE_LIMIT_PER_MINUTE: 1_000_000 });
  const business = await world.business();
  const owner = await world.signIn(business.ownerEmail);
  const cashier = await world.member(owner, 'cashier@acme.example', 'CASHIER');
  const order = await world.gateway.request('POST', '/api/v1/orders', { key: business.liveKey, body: { requestedUsdcAmount: '10' } });
  const routes = await sessionRoutes(world, { merchantId: business.liveId, orderId: order.body.responseObject.order.id, userId: cashier.userId });
  await world.gateway.node.system.effectsIdle();
  const ids = [business.liveId, business.sandboxId];
  const before = await businessState(world, ids);

  const changing = routes.filter((walked) => walked.changes);
  t.true(changing.length >= 10, `${changing.length} session routes change something`);
  for (const walked of changing) {
    const label = `${walked.route.method} ${walked.path} without the CSRF token`;
    const response = await call(world, walked, owner, false);
    t.is(response.status, 403, label);
    t.is((response.json as { errorCode?: string }).errorCode, 'CSRF_TOKEN_MISSING', label);
    t.true(JSON.stringify(walked.operation.responses?.['403']).includes('CSRF_TOKEN_MISSING'), `${label}: the 403 is documented`);
  }
  t.is(await businessState(world, ids), before, 'no call without its CSRF token changed anything');

  const roleGated = routes.filter(
    (walked) => walked.route.method !== 'HEAD' && JSON.stringify(walked.operation.responses?.['403'] ?? '').includes('ROLE_NOT_ALLOWED'),
  );
  t.true(roleGated.length >= 10, `${roleGated.length} session routes document ROLE_NOT_ALLOWED`);
  const cashierAnswers: string[] = [];
  for (const walked of roleGated) {
    const response = await call(world, walked, cashier, true);
    cashierAnswers.push(`${walked.route.method} ${walked.path}: ${response.status} ${(response.json as { errorCode?: string } | undefined)?.errorCode}`);
  }
  // The role is asked ahead of the body: the walk's empty body is refused for the role, not as invalid.
  t.deepEqual(
    cashierAnswers,
    roleGated.map((walked) => `${walked.route.method} ${walked.path}: 403 ROLE_NOT_ALLOWED`),
  );
  t.is(await businessState(world, ids), before, 'no cashier call changed anything');

  await world.gateway.clock.advance(SESSION_IDLE_MS + 60_000);
  for (const walked of routes) {
    const label = `${walked.route.method} ${walked.path} with an expired session`;
    const response = await call(world, walked, owner, true);
    t.is(response.status, 401, label);
    if (walked.route.method !== 'HEAD') t.is((response.json as { errorCode?: string }).errorCode, 'SESSION_EXPIRED', label);
  }
  t.is(await businessState(world, ids), before, 'no call with an expired session changed anything');
});
