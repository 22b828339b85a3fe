/**
 * The indexed match is @koa/router's linear one, layer for layer: checked over the
 * gateway's own routes and templates of every shape the index files or passes over,
 * for paths each template matches and spellings around them that must not match.
 */
import test from 'ava';
import Router, { type Layer } from '@koa/router';
import { exactRouter } from '../../gateway/routing.js';
import { indexRoutes } from '../../gateway/route-index.js';
import { startTestGateway } from '../support/gateway.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE'];
const noop = () => undefined;

/** Paths a template matches, and spellings one step away from it. */
function probes(template: string): string[] {
  const filled = template.replace(/:(\w+)/g, (_, name: string) => `${name}_1`);
  const encoded = template.replace(/:(\w+)/g, (_, name: string) => `%41${name}%2F`);
  const paths = [
    filled,
    encoded,
    `${filled}/`,
    filled.replace(/\/$/, ''),
    filled.toUpperCase(),
    `${filled}/extra`,
    filled.replace(/\/[^/]*$/, ''),
    `/${filled}`,
    filled.replace('/', '//'),
  ];
  const literal = filled.match(/\/([a-z])/);
  if (literal) paths.push(filled.replace(literal[0], `/%${literal[1]!.charCodeAt(0).toString(16)}`));
  return paths;
}

const names = (layers: Layer<any>[]) => layers.map((layer) => `${layer.methods.join(',')} ${String(layer.path)}`);

function assertSameAsLinear(t: import('ava').ExecutionContext, router: Router<any>, paths: Iterable<string>): number {
  const linear = Router.prototype.match;
  let compared = 0;
  for (const path of paths) {
    for (const method of METHODS) {
      const expected = linear.call(router, path, method);
      const actual = router.match(path, method);
      t.deepEqual(names(actual.path), names(expected.path), `${method} ${path}: layers matching the path`);
      t.deepEqual(names(actual.pathAndMethod), names(expected.pathAndMethod), `${method} ${path}: layers matching path and method`);
      t.is(actual.route, expected.route, `${method} ${path}: route`);
      compared++;
    }
  }
  return compared;
}

test("over the gateway's own routes the index finds what the linear scan finds", async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const router = exactRouter();
  for (const route of gateway.node.routes) if (route.method !== 'HEAD') router.register(route.path, [route.method], noop);
  t.true(router.stack.length >= 80, 'the gateway registers its whole API');
  const paths = new Set(gateway.node.routes.flatMap((route) => probes(route.path)));
  for (const extra of ['/', '', '*', '/api', '/api/v1/orders/a/b', '/API/v1/orders']) paths.add(extra);
  const compared = assertSameAsLinear(t, router, paths);
  t.true(compared > 1_000);
  const found = [...paths].filter((path) => router.match(path, 'GET').route).length;
  t.true(found > 50, 'the probes include paths that match');
});

test('templates the index cannot file are tested for every path, in registration order', (t) => {
  const router = exactRouter();
  router.get('/files/:name.json', noop);
  router.get('/a/{:optional}', noop);
  router.get('/wild/*rest', noop);
  router.get(/^\/regex\/\d+$/, noop);
  router.use('/files', noop);
  router.get('/files/readme.json', noop);
  router.get('/:anything', noop);
  router.post('/files/:name.json', noop);
  const caseless = new Router({ sensitive: false, strict: true });
  caseless.get('/Caseless/path', noop);
  const slashless = new Router({ sensitive: true, strict: false });
  slashless.get('/Slash/path', noop);
  router.use(caseless.routes(), slashless.routes());
  const paths = [
    '/caseless/PATH',
    '/Caseless/path',
    '/Slash/path/',
    '/Slash/path',
    '/files/readme.json',
    '/files/a/b',
    '/a',
    '/a/',
    '/a/x',
    '/wild/one/two',
    '/regex/12',
    '/regex/x',
    '/files',
    '/anything',
    '/files/x.json',
  ];
  assertSameAsLinear(t, router, paths);
  t.deepEqual(names(router.match('/files/readme.json', 'GET').pathAndMethod), ['HEAD,GET /files/:name.json', ' /files', 'HEAD,GET /files/readme.json']);
});

test('routes registered, and a prefix set, after the first request are found', (t) => {
  const router = new Router({ sensitive: true, strict: true });
  indexRoutes(router);
  router.get('/first', noop);
  t.true(router.match('/first', 'GET').route);
  t.false(router.match('/second', 'GET').route);
  router.get('/second', noop);
  t.true(router.match('/second', 'GET').route);
  router.prefix('/v2');
  t.true(router.match('/v2/second', 'GET').route);
  t.false(router.match('/second', 'GET').route);
});
