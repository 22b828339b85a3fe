import test from 'ava';
import Router from '@koa/router';
import { respond } from '../../gateway/envelope.js';
import type { RequestState } from '../../gateway/middleware/request-context.js';
import { serveMiddleware } from './middleware-app.js';

interface Line {
  msg: string;
  requestId?: string;
  merchantId?: string;
  [field: string]: unknown;
}

async function serve(t: Parameters<typeof serveMiddleware>[0]) {
  const app = await serveMiddleware(t, (app) => {
    const router = new Router<RequestState>();
    router.get('/quiet', (ctx) => respond(ctx, 200, 'ok', null));
    router.get('/chatty', (ctx) => {
      ctx.state.log.info('before the merchant is known');
      ctx.state.addLogFields({ merchantId: 'mer_1' });
      ctx.state.log.warn({ detail: { apiKey: 'pk_live_secret' } }, 'after');
      respond(ctx, 200, 'ok', null);
    });
    app.use(router.routes());
  });
  return { ...app, lines: () => app.logs.map((line) => JSON.parse(line) as Line) };
}

test('every line a request writes carries its id, and the merchant once it is added', async (t) => {
  const app = await serve(t);
  const response = await fetch(`${app.url}/chatty`, { headers: { 'x-request-id': 'req-chatty-0001' } });
  t.is(response.headers.get('x-request-id'), 'req-chatty-0001');
  const lines = app.lines();
  t.deepEqual(
    lines.map(({ msg, requestId, merchantId }) => ({ msg, requestId, merchantId })),
    [
      { msg: 'before the merchant is known', requestId: 'req-chatty-0001', merchantId: undefined },
      { msg: 'after', requestId: 'req-chatty-0001', merchantId: 'mer_1' },
      { msg: 'request', requestId: 'req-chatty-0001', merchantId: 'mer_1' },
    ],
  );
  t.like(lines[2], { method: 'GET', path: '/chatty', status: 200 });
  t.is(typeof lines[2]!.ms, 'number');
  t.false(app.logs.join('').includes('pk_live_secret'), 'lines other than the access line are still redacted');
});

test('a request that logs nothing else writes its access line with a new id when the caller sent none fit to use', async (t) => {
  const app = await serve(t);
  const first = await fetch(`${app.url}/quiet`, { headers: { 'x-request-id': 'no' } });
  const second = await fetch(`${app.url}/quiet`);
  const lines = app.lines();
  t.is(lines.length, 2);
  const ids = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
  t.deepEqual(
    lines.map(({ msg, requestId }) => ({ msg, requestId })),
    ids.map((requestId) => ({ msg: 'request', requestId: requestId! })),
  );
  t.not(ids[0], ids[1]);
  t.regex(ids[0]!, /^[0-9a-f-]{36}$/);
});
