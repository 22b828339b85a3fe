import test from 'ava';
import { ADMIN_TOKEN, startTestGateway, type TestGateway, missingToken, notFound } from '../support/gateway.js';
import { rawRequest, type RawResponse } from '../support/raw-http.js';

/** Spellings of one admin path that a lenient matcher, a proxy or a browser may treat as the same resource. */
function spellings(id: string): string[] {
  const rest = `merchants/${id}/api-keys/rotate`;
  return [
    `/INTERNAL/v1/${rest}`,
    `/internal/V1/${rest}`,
    `/Internal/v1/${rest}`,
    `//internal/v1/${rest}`,
    `/internal//v1/${rest}`,
    `/internal/v1/${rest}/`,
    `/%69nternal/v1/${rest}`,
    `/internal/%76%31/${rest}`,
    `/%49NTERNAL/v1/${rest}`,
    `/api/../internal/v1/${rest}`,
    `/internal/./v1/${rest}`,
    `http://127.0.0.1/INTERNAL/v1/${rest}`,
  ];
}

async function keyStillWorks(gateway: TestGateway, key: string): Promise<boolean> {
  return (await gateway.request('GET', '/api/v1/merchants/me', { key })).status === 200;
}

test('no spelling of an admin path reaches its route without the admin token, and the key is not rotated', async (t) => {
  const gateway = await startTestGateway();
  try {
    const { liveId, liveKey } = await gateway.createMerchant();
    for (const path of spellings(liveId)) {
      const response = await rawRequest(gateway.url, { method: 'POST', path });
      t.is(response.status, 401, path);
      t.deepEqual(response.json, missingToken, path);
    }
    t.true(await keyStillWorks(gateway, liveKey), 'the merchant key was never rotated');
  } finally {
    await gateway.stop();
  }
});

test('with the admin token, only the exact path is served: every other spelling is an unknown path', async (t) => {
  const gateway = await startTestGateway();
  try {
    const { liveId, liveKey } = await gateway.createMerchant();
    for (const path of spellings(liveId)) {
      const response = await rawRequest(gateway.url, { method: 'POST', path, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      t.is(response.status, 404, path);
      t.deepEqual(response.json, notFound, path);
    }
    t.true(await keyStillWorks(gateway, liveKey));
    const exact = await gateway.admin('POST', `/internal/v1/merchants/${liveId}/api-keys/rotate`);
    t.is(exact.status, 200);
    t.false(await keyStillWorks(gateway, liveKey), 'the exact path rotates the key');
  } finally {
    await gateway.stop();
  }
});

test('an unauthenticated caller gets one answer for every admin path, whether or not a route is there, for any method', async (t) => {
  const gateway = await startTestGateway();
  try {
    const { liveId } = await gateway.createMerchant();
    const probes: Array<[string, string]> = [
      ['GET', '/internal/v1/merchants'],
      ['POST', '/internal/v1/merchants'],
      ['DELETE', '/internal/v1/merchants'],
      ['OPTIONS', '/internal/v1/merchants'],
      ['PURGE', '/internal/v1/merchants'],
      ['PATCH', `/internal/v1/merchants/${liveId}`],
      ['GET', `/internal/v1/merchants/${liveId}`],
      ['POST', '/internal/v1/no-such-route'],
      ['GET', '/internal/v2/anything'],
      ['GET', '/internal'],
    ];
    for (const [method, path] of probes) {
      const response = await rawRequest(gateway.url, { method, path });
      t.is(response.status, 401, `${method} ${path}`);
      t.deepEqual(response.json, missingToken, `${method} ${path}`);
      t.is(response.headers.allow, undefined, `${method} ${path} must not list the route's methods`);
      t.is(response.headers['www-authenticate'], 'Bearer');
    }
  } finally {
    await gateway.stop();
  }
});

test('with PEER_ADMIN_TOKEN unset, admin paths answer exactly as unknown paths do, in any spelling, and change nothing', async (t) => {
  const gateway = await startTestGateway({ PEER_ADMIN_TOKEN: undefined });
  try {
    const liveId = 'mer_0123456789ABCDEFabcdef01';
    const strip = (response: RawResponse) => ({ status: response.status, json: response.json, allow: response.headers.allow });
    for (const method of ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE']) {
      const unknown = strip(await rawRequest(gateway.url, { method, path: '/no-such-path' }));
      for (const path of ['/internal/v1/merchants', `/internal/v1/merchants/${liveId}`, ...spellings(liveId)]) {
        const response = strip(await rawRequest(gateway.url, { method, path, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }));
        t.deepEqual(response, unknown, `${method} ${path}`);
      }
    }
  } finally {
    await gateway.stop();
  }
});
