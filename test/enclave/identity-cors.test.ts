/**
 * A payout customer's page, on the node's origin, registers their account with the attestation
 * service's /identity from the browser: the preflight is answered and so is the POST, a refusal
 * included, for any origin. Other routes stay as they were (no preflight answered).
 */
import test from 'ava';
import { startTestEnclave, type TestEnclave } from '../support/enclave.js';

let enclave: TestEnclave;
test.before(async () => {
  enclave = await startTestEnclave();
});
test.after.always(async () => enclave?.stop());

const PAGE_ORIGIN = 'http://127.0.0.1:8080';

test('/identity answers a browser on another origin: its preflight and its POST, refusals too', async (t) => {
  const url = `${enclave.server.httpUrl}/identity`;
  const preflight = await fetch(url, {
    method: 'OPTIONS',
    headers: { origin: PAGE_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
  t.is(preflight.status, 204);
  t.is(preflight.headers.get('access-control-allow-origin'), '*');
  t.is(preflight.headers.get('access-control-allow-methods'), 'POST');
  t.is(preflight.headers.get('access-control-allow-headers'), 'content-type');
  const refused = await fetch(url, { method: 'POST', headers: { origin: PAGE_ORIGIN, 'content-type': 'application/json' }, body: '{}' });
  t.is(refused.status, 400);
  t.is(refused.headers.get('access-control-allow-origin'), '*');
});

test('another route answers no preflight', async (t) => {
  const preflight = await fetch(`${enclave.server.httpUrl}/buyer/verify/venmo/transfer_venmo`, {
    method: 'OPTIONS',
    headers: { origin: PAGE_ORIGIN, 'access-control-request-method': 'POST' },
  });
  t.is(preflight.headers.get('access-control-allow-origin'), null);
});
