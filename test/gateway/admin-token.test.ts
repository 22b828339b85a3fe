import test from 'ava';
import Router from '@koa/router';
import { respond } from '../../gateway/envelope.js';
import { adminAuth } from '../../gateway/middleware/admin-token.js';
import { guardedArea } from '../../gateway/middleware/guarded-area.js';
import type { RequestState } from '../../gateway/middleware/request-context.js';
import { serveMiddleware } from './middleware-app.js';

const TOKEN = 'admin-token-0123456789abcdef';

function serve(t: Parameters<typeof serveMiddleware>[0], token: string) {
  return serveMiddleware(t, (app) => {
    const router = new Router<RequestState>({ prefix: '/internal/v1', sensitive: true, strict: true });
    router.get('/merchants', (ctx) => respond(ctx, 200, 'Merchants', []));
    app.use(guardedArea('/internal', adminAuth(token), router));
  });
}

const bearer = (authorization: string): RequestInit => ({ headers: { authorization } });

test('a request without a bearer token is a 401', async (t) => {
  const app = await serve(t, TOKEN);
  for (const init of [{}, bearer(''), bearer('Bearer '), bearer(`Basic ${Buffer.from(`admin:${TOKEN}`).toString('base64')}`), bearer(TOKEN)]) {
    const response = await app.call('/internal/v1/merchants', init);
    t.is(response.status, 401);
    t.deepEqual(response.body, { success: false, message: 'Missing admin token', responseObject: null, statusCode: 401 });
    t.is(response.headers.get('www-authenticate'), 'Bearer');
  }
});

test('a wrong token is a 401, whatever its length', async (t) => {
  const app = await serve(t, TOKEN);
  for (const wrong of ['x', TOKEN.slice(0, -1), `${TOKEN}0`, TOKEN.toUpperCase(), 'y'.repeat(500)]) {
    const response = await app.call('/internal/v1/merchants', bearer(`Bearer ${wrong}`));
    t.is(response.status, 401, wrong);
    t.deepEqual(response.body, { success: false, message: 'Invalid admin token', responseObject: null, statusCode: 401 }, wrong);
    t.is(response.headers.get('www-authenticate'), 'Bearer');
  }
});

test('the right token passes, scheme in any case', async (t) => {
  const app = await serve(t, TOKEN);
  for (const authorization of [`Bearer ${TOKEN}`, `bearer ${TOKEN}`]) {
    const response = await app.call('/internal/v1/merchants', bearer(authorization));
    t.is(response.status, 200, authorization);
    t.deepEqual(response.body, { success: true, message: 'Merchants', responseObject: [], statusCode: 200 });
    t.is(response.headers.get('www-authenticate'), null);
  }
});
