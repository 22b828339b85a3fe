import test from 'ava';
import Koa from 'koa';
import Router from '@koa/router';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AskTimeoutError, CommandRejectedError, UnknownActorError, createLogger } from '../../actors/index.js';
import { ApiError } from '../../gateway/envelope.js';
import { errorEnvelope } from '../../gateway/middleware/errors.js';
import { unmatched } from '../../gateway/middleware/unmatched.js';
import { requestContext, type RequestState } from '../../gateway/middleware/request-context.js';

async function serve(): Promise<{ url: string; logs: string[]; close: () => Promise<void> }> {
  const logs: string[] = [];
  const logger = createLogger({ level: 'info', destination: { write: (line: string) => void logs.push(line) } });
  const app = new Koa<RequestState>();
  app.silent = true;
  app.use(requestContext(logger));
  app.use(errorEnvelope());
  const router = new Router<RequestState>();
  router.get('/rejected', () => {
    throw new CommandRejectedError('ORDER_STATUS_NOT_ELIGIBLE', 'the order is FULFILLED', { status: 'FULFILLED' });
  });
  router.get('/unknown', () => {
    throw new UnknownActorError('order', 'ord_1');
  });
  router.get('/timeout', () => {
    throw new AskTimeoutError('order', 'ord_1', 10_000);
  });
  router.get('/api-error', () => {
    throw new ApiError(401, 'Missing API key');
  });
  router.get('/http-400', () => {
    throw Object.assign(new Error('request aborted'), { status: 400, expose: true });
  });
  router.get('/boom', () => {
    throw new Error('secret internal detail at /srv/app.ts:12');
  });
  app.use(router.routes());
  app.use(unmatched());
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, logs, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('runtime errors and API errors become the documented envelope', async (t) => {
  const { url, close } = await serve();
  try {
    const cases: Array<[string, number, Record<string, unknown>]> = [
      [
        '/rejected',
        409,
        { success: false, statusCode: 409, message: 'the order is FULFILLED', errorCode: 'ORDER_STATUS_NOT_ELIGIBLE', responseObject: { status: 'FULFILLED' } },
      ],
      ['/unknown', 404, { success: false, statusCode: 404, message: 'Not found', errorCode: 'NOT_FOUND', responseObject: null }],
      ['/timeout', 503, { success: false, statusCode: 503, errorCode: 'SERVICE_UNAVAILABLE', responseObject: null }],
      ['/api-error', 401, { success: false, statusCode: 401, message: 'Missing API key', responseObject: null }],
      // A 400 that is not validation names itself, so it is never mistaken for the validation shape.
      ['/http-400', 400, { success: false, statusCode: 400, message: 'Malformed HTTP request', responseObject: null, errorCode: 'MALFORMED_REQUEST' }],
      ['/no-such-route', 404, { success: false, statusCode: 404, errorCode: 'NOT_FOUND', responseObject: null }],
    ];
    for (const [path, status, body] of cases) {
      const response = await fetch(url + path);
      t.is(response.status, status, path);
      t.like(await response.json(), body, path);
    }
    const timeout = await fetch(`${url}/timeout`);
    t.is(timeout.headers.get('retry-after'), '1');
  } finally {
    await close();
  }
});

test('an unexpected error is a 500 without its message or stack, logged with the request id', async (t) => {
  const { url, logs, close } = await serve();
  try {
    const response = await fetch(`${url}/boom`, { headers: { 'x-request-id': 'req-12345678' } });
    t.is(response.status, 500);
    t.is(response.headers.get('x-request-id'), 'req-12345678');
    const text = await response.text();
    t.deepEqual(JSON.parse(text), { success: false, message: 'Internal server error', responseObject: null, statusCode: 500, errorCode: 'INTERNAL_ERROR' });
    t.notRegex(text, /secret|srv|stack/);
    const logged = logs.map((line) => JSON.parse(line) as { msg: string; requestId?: string });
    t.true(logged.some((line) => line.msg === 'unhandled error' && line.requestId === 'req-12345678'));
    t.true(logged.every((line) => line.requestId === 'req-12345678'));
  } finally {
    await close();
  }
});

test('a request id that is not sane is replaced by a fresh one', async (t) => {
  const { url, close } = await serve();
  try {
    const response = await fetch(`${url}/unknown`, { headers: { 'x-request-id': 'bad id with spaces' } });
    t.regex(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  } finally {
    await close();
  }
});
