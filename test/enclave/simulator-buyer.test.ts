import test from 'ava';
import { decodeAbiParameters, keccak256, toBytes, type Hex } from 'viem';
import { INTENT_SNAPSHOT_ABI, PAYMENT_DETAILS_ABI } from '../../enclave/attestation/payment-attestation.js';
import { formatFiat } from '../../machines/money.js';
import { INTENT_AMOUNT, OWED_CENTS, PLATFORM_FIXTURES, buyerVerify, intentFor, startTestEnclave, type TestEnclave } from '../support/enclave.js';

let enclave: TestEnclave;
// The service's clock is the real one: payments made over HTTP are dated now, and the intent they pay was signalled just before.
test.before(async () => {
  enclave = await startTestEnclave({ now: () => Date.now() });
});
test.after.always(async () => enclave?.stop());

const venmo = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'venmo')!;
const wise = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'wise')!;
const PAGE_ORIGIN = 'http://127.0.0.1:3000';

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${enclave.simulator.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

async function preflight(path: string, origin: string) {
  return fetch(`${enclave.simulator.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
  });
}

async function signIn(platform: string, username?: string) {
  const { status, body } = await post('/_buyer/sessions', { platform, ...(username ? { username } : {}) });
  if (status !== 201) throw new Error(`sign-in to ${platform} answered ${status}: ${JSON.stringify(body)}`);
  return body as { platform: string; account: { id: string; username: string; handle?: string }; material: Record<string, string> };
}

const pay = (platform: string, material: Record<string, string>, overrides: Record<string, unknown> = {}) =>
  post('/_buyer/payments', { platform, material, payee: venmo.payeeRaw, amount: '25.35', currency: 'USD', ...overrides });

test('a buyer signs in, pays and sees what they sent', async (t) => {
  const session = await signIn('venmo', 'bob.buyer');
  t.is(session.platform, 'venmo');
  t.is(session.account.username, 'bob.buyer');
  t.regex(session.account.id, /^[1-9]\d{9}$/);
  t.deepEqual(Object.keys(session.material), ['Cookie']);
  // The material is a live session in the simulator, as openSession would have made it.
  t.deepEqual(enclave.simulator.sessionOf('venmo', session.material), { account: session.account, payments: [] });

  const before = Date.now();
  const paid = await pay('venmo', session.material, { note: 'order 42' });
  t.is(paid.status, 201, JSON.stringify(paid.body));
  t.true(paid.body.timestampMs >= before && paid.body.timestampMs <= Date.now());
  t.deepEqual(paid.body.proofParams, { PAYMENT_ID: paid.body.paymentId });

  const listed = await post('/_buyer/payments/list', { platform: 'venmo', material: session.material });
  t.is(listed.status, 200);
  t.deepEqual(listed.body.payments, [
    {
      paymentId: paid.body.paymentId,
      payee: venmo.payeeRaw,
      amount: '25.35',
      currency: 'USD',
      note: 'order 42',
      timestampMs: paid.body.timestampMs,
      status: 'completed',
      direction: 'outgoing',
      proofParams: { PAYMENT_ID: paid.body.paymentId },
    },
  ]);
});

test("two sign-ins are two accounts, and neither sees the other's payments", async (t) => {
  const [first, second] = [await signIn('cashapp'), await signIn('cashapp')];
  t.not(first.account.id, second.account.id);
  t.is(first.account.handle, `$${first.account.username}`);
  t.is((await pay('cashapp', first.material, { payee: '$MakerMary' })).status, 201);
  const listed = await post('/_buyer/payments/list', { platform: 'cashapp', material: second.material });
  t.deepEqual(listed.body, { payments: [] });
});

for (const fixture of PLATFORM_FIXTURES) {
  test(`${fixture.platform}: a payment made over HTTP is attested by the enclave's buyer verification with the proof params it was given`, async (t) => {
    const signalTimestamp = Math.floor(Date.now() / 1000) - 1;
    const { account, material } = await signIn(fixture.platform);
    const paid = await pay(fixture.platform, material, { payee: fixture.payeeRaw, amount: formatFiat(OWED_CENTS), currency: fixture.currency });
    t.is(paid.status, 201, JSON.stringify(paid.body));
    const { paymentId, timestampMs, proofParams } = paid.body;
    t.deepEqual(proofParams, { PAYMENT_ID: paymentId, ...(fixture.extraParams?.(account) ?? {}) });

    const intent = intentFor(fixture, { signalTimestamp, expiryTime: signalTimestamp + 86_400 });
    const payment = { paymentId, amount: OWED_CENTS, currency: fixture.currency, payee: fixture.payeeRaw, timestampMs, status: 'completed' as const };
    const { status, body } = await buyerVerify(enclave, fixture, { material, account, payment, params: proofParams }, intent);
    t.is(status, 200, JSON.stringify(body));
    t.is(body.responseObject.metadata.source, 'buyer-tee');
    t.is(body.responseObject.typedDataValue.releaseAmount, INTENT_AMOUNT.toString());
    const [details] = decodeAbiParameters([PAYMENT_DETAILS_ABI, INTENT_SNAPSHOT_ABI], body.responseObject.encodedPaymentDetails as Hex);
    t.like(details, { paymentId: keccak256(toBytes(paymentId)), amount: OWED_CENTS, payeeId: keccak256(toBytes(fixture.payeeId)) });
    // The payment's time as recorded, at the precision the platform writes it: Wise and Citi write whole seconds.
    const shown = BigInt(timestampMs) - details.timestamp;
    t.true(shown >= 0n && shown < 1000n, `attested ${details.timestamp}, paid at ${timestampMs}`);
  });
}

test("wise: the proof params name the buyer's own profile, which the enclave reads the transfer under", async (t) => {
  const { account, material } = await signIn('wise');
  t.regex(account.id, /^[1-9]\d*$/);
  const paid = await pay('wise', material, { payee: wise.payeeRaw, currency: 'EUR' });
  t.deepEqual(paid.body.proofParams, { PAYMENT_ID: paid.body.paymentId, PROFILE_ID: account.id });
  t.regex(paid.body.paymentId, /^[1-9]\d*$/);
});

test('a page on a loopback origin may call the buyer API from the browser', async (t) => {
  for (const origin of [PAGE_ORIGIN, 'http://localhost:5173', 'http://[::1]:3000']) {
    const response = await preflight('/_buyer/payments', origin);
    t.is(response.status, 204, origin);
    t.is(response.headers.get('access-control-allow-origin'), origin);
    t.regex(response.headers.get('access-control-allow-methods') ?? '', /POST/);
    t.regex(response.headers.get('access-control-allow-headers') ?? '', /content-type/i);
  }
  // The answers themselves, errors too, are readable by the page.
  const signedIn = await post('/_buyer/sessions', { platform: 'venmo' }, { origin: PAGE_ORIGIN });
  t.is(signedIn.headers.get('access-control-allow-origin'), PAGE_ORIGIN);
  const refused = await post('/_buyer/sessions', { platform: 'myspace' }, { origin: PAGE_ORIGIN });
  t.is(refused.status, 400);
  t.is(refused.headers.get('access-control-allow-origin'), PAGE_ORIGIN);
});

test('a page on any other origin is not let in', async (t) => {
  for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example:3000', 'http://localhost.evil.example', 'null']) {
    const response = await preflight('/_buyer/payments', origin);
    t.is(response.headers.get('access-control-allow-origin'), null, origin);
    t.is(response.headers.get('access-control-allow-methods'), null, origin);
  }
  const signedIn = await post('/_buyer/sessions', { platform: 'venmo' }, { origin: 'https://evil.example' });
  t.is(signedIn.headers.get('access-control-allow-origin'), null);
  // The platforms' own paths are for the enclave, never a browser: no CORS there even from loopback.
  const platformPath = await preflight('/venmo/api/v5/account', PAGE_ORIGIN);
  t.is(platformPath.headers.get('access-control-allow-origin'), null);
});

test('a platform the simulator takes no payments on is refused with 400 UNKNOWN_PLATFORM', async (t) => {
  // Alipay is simulated for its identity page only.
  for (const platform of ['myspace', 'alipay', '__proto__']) {
    t.like(await post('/_buyer/sessions', { platform }), { status: 400, body: { error: { code: 'UNKNOWN_PLATFORM' } } }, platform);
  }
  t.like(await pay('myspace', { Cookie: 'session=x' }), { status: 400, body: { error: { code: 'UNKNOWN_PLATFORM' } } });
});

test('material of no open session is refused with 401 SESSION_NOT_FOUND', async (t) => {
  const unknown = { Cookie: 'api_access_token=0123456789abcdef' };
  t.like(await pay('venmo', unknown), { status: 401, body: { error: { code: 'SESSION_NOT_FOUND' } } });
  t.like(await post('/_buyer/payments/list', { platform: 'venmo', material: unknown }), { status: 401, body: { error: { code: 'SESSION_NOT_FOUND' } } });
  // A session is one platform's: Chime does not know a Venmo cookie.
  const { material } = await signIn('venmo');
  t.like(await pay('chime', material), { status: 401, body: { error: { code: 'SESSION_NOT_FOUND' } } });
});

test('an amount that is not a positive fiat decimal of at most two places is refused with 400, and nothing is recorded', async (t) => {
  const { material } = await signIn('venmo');
  for (const amount of ['1.234', '-1', 'abc', '0', '0.00', '', '1e3', '1000000.01']) {
    t.like(await pay('venmo', material, { amount }), { status: 400, body: { error: { code: 'INVALID_AMOUNT' } } }, amount);
  }
  t.like(await pay('venmo', material, { amount: 25.35 }), { status: 400, body: { error: { code: 'INVALID_REQUEST' } } });
  t.deepEqual((await post('/_buyer/payments/list', { platform: 'venmo', material })).body, { payments: [] });
});

test('a body the API cannot use is refused with 400 and a code saying why', async (t) => {
  const venmoSession = await signIn('venmo');
  const wiseSession = await signIn('wise');
  const monzoSession = await signIn('monzo');
  t.like(await post('/_buyer/payments', { platform: 'venmo', material: venmoSession.material, amount: '1.00', currency: 'USD' }), {
    status: 400,
    body: { error: { code: 'INVALID_REQUEST' } },
  });
  t.like(await post('/_buyer/payments', '{"platform":'), { status: 400, body: { error: { code: 'INVALID_JSON' } } });
  t.like(await post('/_buyer/sessions', { platform: 'venmo', username: 'no spaces please' }), { status: 400, body: { error: { code: 'INVALID_REQUEST' } } });
  t.like(await pay('venmo', venmoSession.material, { currency: 'usd' }), { status: 400, body: { error: { code: 'INVALID_REQUEST' } } });
  // Venmo's adapter reads every story as dollars: a euro payment there would be attested as dollars.
  t.like(await pay('venmo', venmoSession.material, { currency: 'EUR' }), { status: 400, body: { error: { code: 'UNSUPPORTED_CURRENCY' } } });
  t.like(await pay('wise', wiseSession.material, { payee: 'MakerMary', currency: 'EUR' }), { status: 400, body: { error: { code: 'INVALID_PAYEE' } } });
  t.like(await pay('monzo', monzoSession.material, { payee: '12345678', currency: 'GBP' }), { status: 400, body: { error: { code: 'INVALID_PAYEE' } } });
  t.like(await post('/_buyer/nowhere', {}), { status: 404, body: { error: { code: 'NOT_FOUND' } } });
});
