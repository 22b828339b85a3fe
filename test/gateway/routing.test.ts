import test from 'ava';
import type Koa from 'koa';
import { respond } from '../../gateway/envelope.js';
import { exactRouter, underPrefix } from '../../gateway/routing.js';
import { serveMiddleware } from './middleware-app.js';

test('a router mounted under its prefix serves its paths, and its methods still answer 405 and OPTIONS', async (t) => {
  const page = exactRouter();
  page.get('/internal/page', (ctx) => respond(ctx, 200, 'page', null));
  const app = await serveMiddleware(t, (koa) => koa.use(underPrefix('/internal/page', page) as Koa.Middleware<any>));
  t.is((await app.call('/internal/page')).status, 200);
  const wrongMethod = await app.call('/internal/page', { method: 'POST' });
  t.is(wrongMethod.status, 405);
  t.is(wrongMethod.headers.get('allow'), 'GET, HEAD, OPTIONS');
  t.is((await app.call('/internal/page', { method: 'OPTIONS' })).status, 200);
  t.is((await app.call('/internal/pages')).status, 404);
  t.is((await app.call('/elsewhere')).status, 404);
});

test('a router with a route outside the prefix is refused when mounted', (t) => {
  const page = exactRouter();
  page.get('/internal/page', () => undefined);
  page.get('/public/page', () => undefined);
  t.throws(() => underPrefix('/internal/page', page), { message: '/public/page is not under /internal/page' });
});
