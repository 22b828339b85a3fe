import test from 'ava';
import Router from '@koa/router';
import { request } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { respond, type Envelope } from '../../gateway/envelope.js';
import { MAX_BODY_DEPTH, jsonBody } from '../../gateway/middleware/body.js';
import type { RequestState } from '../../gateway/middleware/request-context.js';
import { serveMiddleware } from './middleware-app.js';

const LIMIT = 1024;

function serve(t: Parameters<typeof serveMiddleware>[0], limit = LIMIT) {
  return serveMiddleware(t, (app) => {
    const router = new Router<RequestState>();
    router.post('/echo', jsonBody(limit), (ctx) => respond(ctx, 200, 'Echo', { body: ctx.request.body }));
    app.use(router.routes());
  });
}

const json = (body: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });

const malformed: Envelope = {
  success: false,
  message: 'Invalid request',
  responseObject: { fieldErrors: {}, formErrors: ['Malformed JSON body'] },
  statusCode: 400,
};

test('a JSON body within the limit is parsed', async (t) => {
  const app = await serve(t);
  const response = await app.call('/echo', { ...json('{"a":[1,"two"]}'), headers: { 'content-type': 'application/json; charset=utf-8' } });
  t.is(response.status, 200);
  t.deepEqual(response.body, { success: true, message: 'Echo', responseObject: { body: { a: [1, 'two'] } }, statusCode: 200 });
});

test('a request without a body passes with an empty object', async (t) => {
  const app = await serve(t);
  for (const init of [{ method: 'POST' }, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '' }]) {
    const response = await app.call('/echo', init);
    t.is(response.status, 200);
    t.deepEqual(response.body, { success: true, message: 'Echo', responseObject: { body: {} }, statusCode: 200 });
  }
});

test('a body over the limit is a 413 envelope, by Content-Length', async (t) => {
  const app = await serve(t);
  const response = await app.call('/echo', json(JSON.stringify({ pad: 'x'.repeat(LIMIT) })));
  t.is(response.status, 413);
  t.deepEqual(response.body, { success: false, message: 'Request body too large', responseObject: null, statusCode: 413, errorCode: 'PAYLOAD_TOO_LARGE' });
});

test('a chunked body over the limit is a 413 envelope too', async (t) => {
  const app = await serve(t);
  const { status, body } = await new Promise<{ status: number; body: Envelope }>((resolve, reject) => {
    const req = request(`${app.url}/echo`, { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope }));
    });
    req.on('error', reject);
    req.write(`{"pad":"${'x'.repeat(LIMIT)}`);
    req.end('"}');
  });
  t.is(status, 413);
  t.deepEqual(body, { success: false, message: 'Request body too large', responseObject: null, statusCode: 413, errorCode: 'PAYLOAD_TOO_LARGE' });
});

test('malformed JSON is the validation 400 with a form error', async (t) => {
  const app = await serve(t);
  for (const text of ['{"a":', '{a:1}', 'nul', '{"a":1}}']) {
    const response = await app.call('/echo', json(text));
    t.is(response.status, 400, text);
    t.deepEqual(response.body, malformed, text);
  }
});

test('a JSON scalar at the top level is refused like malformed JSON', async (t) => {
  const app = await serve(t);
  for (const text of ['42', '"text"', 'null']) {
    const response = await app.call('/echo', json(text));
    t.deepEqual(response.body, malformed, text);
  }
});

test('a body of another media type, or of no stated type, is a 415', async (t) => {
  const app = await serve(t);
  const expected: Envelope = {
    success: false,
    message: 'Unsupported media type: send application/json',
    responseObject: null,
    statusCode: 415,
    errorCode: 'UNSUPPORTED_MEDIA_TYPE',
  };
  const cases: Array<[string, RequestInit]> = [
    ['text/plain', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"a":1}' }],
    ['form', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' }],
    ['no content-type', { method: 'POST', body: new Blob(['{"a":1}']) }],
  ];
  for (const [name, init] of cases) {
    const response = await app.call('/echo', init);
    t.is(response.status, 415, name);
    t.deepEqual(response.body, expected, name);
  }
});

const encoded = (encoding: string, body: Buffer | string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', 'content-encoding': encoding },
  body,
});

test('a compressed body is parsed when it decodes as its Content-Encoding says', async (t) => {
  const app = await serve(t);
  const text = '{"a":[1,"two"]}';
  for (const [encoding, body] of [
    ['gzip', gzipSync(text)],
    ['deflate', deflateSync(text)],
    ['br', brotliCompressSync(text)],
  ] as const) {
    const response = await app.call('/echo', encoded(encoding, body));
    t.is(response.status, 200, encoding);
    t.deepEqual(response.body.responseObject, { body: { a: [1, 'two'] } }, encoding);
  }
});

test('a body that does not decode as its Content-Encoding says is the validation 400, not a 500', async (t) => {
  const app = await serve(t);
  const cases: Array<[string, Buffer | string]> = [
    ['gzip', 'not gzip'],
    ['deflate', 'not deflate'],
    ['br', 'not brotli'],
    ['gzip', gzipSync('{"a":1}').subarray(0, 12)],
  ];
  for (const [encoding, body] of cases) {
    const response = await app.call('/echo', encoded(encoding, body));
    t.is(response.status, 400, encoding);
    t.deepEqual(
      response.body,
      {
        success: false,
        message: 'Invalid request',
        responseObject: { fieldErrors: {}, formErrors: [`Body is not valid ${encoding} data, as its Content-Encoding says`] },
        statusCode: 400,
      },
      encoding,
    );
  }
});

test('a compressed body that inflates past the limit is a 413; an unknown encoding is a 415', async (t) => {
  const app = await serve(t);
  const bomb = await app.call('/echo', encoded('gzip', gzipSync(JSON.stringify({ pad: 'x'.repeat(50 * LIMIT) }))));
  t.is(bomb.status, 413);
  t.deepEqual(bomb.body, { success: false, message: 'Request body too large', responseObject: null, statusCode: 413, errorCode: 'PAYLOAD_TOO_LARGE' });
  for (const encoding of ['compress', 'zstd', 'gzip, gzip']) {
    const response = await app.call('/echo', encoded(encoding, '{"a":1}'));
    t.is(response.status, 415, encoding);
    t.is(response.body.statusCode, 415, encoding);
  }
});

test(`a JSON body nested deeper than ${MAX_BODY_DEPTH} levels is refused before any handler sees it`, async (t) => {
  const app = await serve(t, 1024 * 1024);
  const nested = (levels: number) => `${'['.repeat(levels - 1)}{}${']'.repeat(levels - 1)}`;
  const deepest = await app.call('/echo', json(`{"a":${nested(MAX_BODY_DEPTH - 1)}}`));
  t.is(deepest.status, 200, 'exactly the limit is accepted');
  for (const levels of [MAX_BODY_DEPTH + 1, 5_000, 40_000]) {
    const response = await app.call('/echo', json(`{"a":${nested(levels)}}`));
    t.is(response.status, 400, String(levels));
    t.deepEqual(
      response.body,
      {
        success: false,
        message: 'Invalid request',
        responseObject: { fieldErrors: {}, formErrors: [`JSON body nests deeper than ${MAX_BODY_DEPTH} levels`] },
        statusCode: 400,
      },
      String(levels),
    );
  }
});

test('a body sent as is is answered as the same body gzipped (which @koa/bodyparser reads): parsed, raw and refused alike', async (t) => {
  const app = await serveMiddleware(t, (koa) => {
    const router = new Router<RequestState>();
    router.post('/echo', jsonBody(LIMIT), (ctx) => respond(ctx, 200, 'Echo', { body: ctx.request.body, raw: ctx.request.rawBody ?? null }));
    koa.use(router.routes());
  });
  const deep = `${'['.repeat(MAX_BODY_DEPTH + 1)}${']'.repeat(MAX_BODY_DEPTH + 1)}`;
  const texts = [
    '{"a":[1,"two"],"é":"\\u00e9"}',
    ' \n[1,2]',
    '',
    '"scalar"',
    '42',
    '{bad',
    '{"__proto__":{"admin":true}}',
    '{"a":{"\\u005f_proto__":1}}',
    '{"constructor":{"prototype":{"admin":true}}}',
    JSON.stringify({ pad: 'x'.repeat(LIMIT) }),
    deep,
  ];
  for (const text of texts) {
    const plain = await app.call('/echo', json(text));
    const identity = await app.call('/echo', { ...json(text), headers: { 'content-type': 'application/json', 'content-encoding': 'identity' } });
    const gzipped = await app.call('/echo', encoded('gzip', gzipSync(text)));
    t.deepEqual([plain.status, plain.body], [gzipped.status, gzipped.body], text.slice(0, 40));
    t.deepEqual([identity.status, identity.body], [gzipped.status, gzipped.body], text.slice(0, 40));
  }
});
