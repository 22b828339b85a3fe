import test from 'ava';
import { startTestGateway, notFound } from '../support/gateway.js';
import { rawRequest } from '../support/raw-http.js';

const notImplemented = { success: false, message: 'Method not implemented', responseObject: null, statusCode: 501, errorCode: 'NOT_IMPLEMENTED' };
const notAllowed = { success: false, message: 'Method not allowed', responseObject: null, statusCode: 405, errorCode: 'METHOD_NOT_ALLOWED' };

test('a method the API never implements is a 501 envelope on any path', async (t) => {
  const gateway = await startTestGateway();
  try {
    for (const method of ['PURGE', 'TRACE', 'PROPFIND', 'LINK']) {
      for (const path of ['/x', '/api/v1/orders', '/v1/health-check']) {
        const response = await rawRequest(gateway.url, { method, path });
        t.is(response.status, 501, `${method} ${path}`);
        t.deepEqual(response.json, notImplemented, `${method} ${path}`);
        t.regex(String(response.headers['content-type']), /^application\/json/);
      }
    }
  } finally {
    await gateway.stop();
  }
});

test('a known path with a method it does not take is a 405 envelope listing what it takes', async (t) => {
  const gateway = await startTestGateway();
  try {
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/api/v1/orders', 'OPTIONS, POST'],
      ['PUT', '/api/v1/orders', 'OPTIONS, POST'],
      ['GET', '/api/v1/orders', 'OPTIONS, POST'],
      ['POST', '/v1/health-check', 'GET, HEAD, OPTIONS'],
      ['PATCH', '/api/v1/merchants/me', 'GET, HEAD, OPTIONS'],
    ];
    for (const [method, path, allow] of cases) {
      const response = await rawRequest(gateway.url, { method, path });
      t.is(response.status, 405, `${method} ${path}`);
      t.deepEqual(response.json, notAllowed, `${method} ${path}`);
      t.is(response.headers.allow, allow, `${method} ${path}`);
    }
  } finally {
    await gateway.stop();
  }
});

test('an unknown path is a 404 envelope whatever the standard method', async (t) => {
  const gateway = await startTestGateway();
  try {
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      const response = await rawRequest(gateway.url, { method, path: '/api/v1/no-such-thing' });
      t.is(response.status, 404, method);
      t.deepEqual(response.json, notFound, method);
      t.is(response.headers.allow, undefined, method);
    }
    const head = await rawRequest(gateway.url, { method: 'HEAD', path: '/api/v1/no-such-thing' });
    t.is(head.status, 404);
    t.is(head.text, '');
  } finally {
    await gateway.stop();
  }
});

test('OPTIONS answers the allowed methods in the envelope and grants no cross-origin access', async (t) => {
  const gateway = await startTestGateway();
  try {
    const preflight = { origin: 'https://shop.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type' };
    for (const [path, methods] of [
      ['/api/v1/orders', ['OPTIONS', 'POST']],
      ['/api/v1/merchants/me', ['GET', 'HEAD', 'OPTIONS']],
      ['/api/v1/orders/ord_0123456789ABCDEFabcdef01', ['GET', 'HEAD', 'OPTIONS']],
    ] as const) {
      for (const headers of [{}, preflight]) {
        const response = await rawRequest(gateway.url, { method: 'OPTIONS', path, headers });
        t.is(response.status, 200, path);
        t.deepEqual(response.json, { success: true, message: 'Allowed methods', responseObject: { methods }, statusCode: 200 }, path);
        t.is(response.headers.allow, methods.join(', '), path);
        t.is(response.headers['access-control-allow-origin'], undefined, path);
        t.is(response.headers['access-control-allow-methods'], undefined, path);
      }
    }
  } finally {
    await gateway.stop();
  }
});
