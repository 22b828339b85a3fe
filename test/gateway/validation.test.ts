import test from 'ava';
import Router from '@koa/router';
import { z } from 'zod';
import { ApiError, respond } from '../../gateway/envelope.js';
import { jsonBody } from '../../gateway/middleware/body.js';
import type { RequestState } from '../../gateway/middleware/request-context.js';
import { parseOrThrow } from '../../gateway/validation.js';
import { serveMiddleware } from './middleware-app.js';

const widget = z.strictObject({
  name: z.string().min(3),
  size: z.number().int().positive(),
  tags: z.array(z.string()).default([]),
});
const listQuery = z.object({ page: z.coerce.number().int().min(1).default(1), limit: z.coerce.number().int().min(1).max(100).default(20) });

function serve(t: Parameters<typeof serveMiddleware>[0]) {
  return serveMiddleware(t, (app) => {
    const router = new Router<RequestState>();
    router.post('/widgets', jsonBody(4096), (ctx) => respond(ctx, 201, 'Widget created', parseOrThrow(widget, ctx.request.body)));
    router.get('/widgets', (ctx) => respond(ctx, 200, 'Widgets', parseOrThrow(listQuery, ctx.query)));
    app.use(router.routes());
  });
}

const post = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('a valid body is answered with the parsed value, defaults applied', async (t) => {
  const app = await serve(t);
  const response = await app.call('/widgets', post({ name: 'gear', size: 3 }));
  t.is(response.status, 201);
  t.deepEqual(response.body, { success: true, message: 'Widget created', responseObject: { name: 'gear', size: 3, tags: [] }, statusCode: 201 });
});

test('field failures are a 400 with fieldErrors per field, no errorCode', async (t) => {
  const app = await serve(t);
  const response = await app.call('/widgets', post({ name: 'x', size: 1.5, tags: 'red' }));
  t.is(response.status, 400);
  t.deepEqual(response.body, {
    success: false,
    message: 'Invalid request',
    responseObject: {
      formErrors: [],
      fieldErrors: {
        name: ['Too small: expected string to have >=3 characters'],
        size: ['Invalid input: expected int, received number'],
        tags: ['Invalid input: expected array, received string'],
      },
    },
    statusCode: 400,
  });
});

test('unknown fields and a wrong top-level type land in formErrors', async (t) => {
  const app = await serve(t);
  const unknown = await app.call('/widgets', post({ name: 'gear', size: 3, colour: 'red' }));
  t.is(unknown.status, 400);
  t.deepEqual(unknown.body, {
    success: false,
    message: 'Invalid request',
    responseObject: { formErrors: ['Unrecognized key: "colour"'], fieldErrors: {} },
    statusCode: 400,
  });
  const array = await app.call('/widgets', post([1, 2]));
  t.deepEqual(array.body, {
    success: false,
    message: 'Invalid request',
    responseObject: { formErrors: ['Invalid input: expected object, received array'], fieldErrors: {} },
    statusCode: 400,
  });
});

test('query strings validate the same way', async (t) => {
  const app = await serve(t);
  const ok = await app.call('/widgets?page=2');
  t.deepEqual(ok.body, { success: true, message: 'Widgets', responseObject: { page: 2, limit: 20 }, statusCode: 200 });
  const tooMany = await app.call('/widgets?limit=101');
  t.is(tooMany.status, 400);
  t.deepEqual(tooMany.body, {
    success: false,
    message: 'Invalid request',
    responseObject: { formErrors: [], fieldErrors: { limit: ['Too big: expected number to be <=100'] } },
    statusCode: 400,
  });
});

test('parseOrThrow returns the typed output and throws ApiError without an errorCode', (t) => {
  const value: { name: string; size: number; tags: string[] } = parseOrThrow(widget, { name: 'gear', size: 2 });
  t.deepEqual(value, { name: 'gear', size: 2, tags: [] });
  const error = t.throws(() => parseOrThrow(widget, null), { instanceOf: ApiError });
  t.is(error?.statusCode, 400);
  t.is(error?.errorCode, undefined);
  t.deepEqual(error?.responseObject, { formErrors: ['Invalid input: expected object, received null'], fieldErrors: {} });
});
