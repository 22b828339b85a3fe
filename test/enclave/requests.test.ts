import test from 'ava';
import {
  PAYMENT_VERIFIER,
  PLATFORM_FIXTURES,
  TEST_CHAIN_ID,
  buyerVerify,
  intentFor,
  preparePayment,
  startTestEnclave,
  type TestEnclave,
  paymentUse,
} from '../support/enclave.js';

let enclave: TestEnclave;
test.before(async () => {
  enclave = await startTestEnclave();
});
test.after.always(async () => enclave?.stop());

const venmo = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'venmo')!;
const wise = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'wise')!;

/** Runs `request` and reports how many requests reached the platform meanwhile; the file's tests run one at a time, so no other test's count in. */
async function platformCalls<T>(platform: string, request: () => Promise<T>): Promise<[T, number]> {
  const before = enclave.simulator.requests.get(platform) ?? 0;
  const result = await request();
  return [result, (enclave.simulator.requests.get(platform) ?? 0) - before];
}

test.serial('an unknown platform is 404 and a mismatched action type is 400, before any platform is asked', async (t) => {
  const prepared = preparePayment(enclave, venmo);
  const intent = intentFor(venmo);
  const body = {
    encryptedSessionMaterial: await enclave.seal(prepared.material, paymentUse(venmo, intent)),
    params: prepared.params,
    intent,
    chainId: TEST_CHAIN_ID,
  };
  const [unknown, calls] = await platformCalls('venmo', () => enclave.post('/buyer/verify/myspace/transfer_myspace', body));
  t.like(unknown, { status: 404, body: { success: false, errorCode: 'UNSUPPORTED_PLATFORM', statusCode: 404 } });
  const wrongAction = await enclave.post('/buyer/verify/venmo/transfer_cashapp', body);
  t.like(wrongAction, { status: 400, body: { errorCode: 'UNSUPPORTED_ACTION' } });
  t.is(calls, 0);
});

test.serial('the verifier is resolved from chainId; a verifyingContract that is sent must equal it', async (t) => {
  const prepared = preparePayment(enclave, venmo);
  const [mismatch, calls] = await platformCalls('venmo', () =>
    buyerVerify(enclave, venmo, prepared, intentFor(venmo), { verifyingContract: '0x000000000000000000000000000000000000dEaD' }),
  );
  t.like(mismatch, { status: 400, body: { errorCode: 'VERIFYING_CONTRACT_MISMATCH' } });
  t.regex(mismatch.body.message, new RegExp(`not the payment verifier of chain ${TEST_CHAIN_ID} \\(${PAYMENT_VERIFIER}\\)`));
  t.is(calls, 0);

  const unknownChain = await buyerVerify(enclave, venmo, prepared, intentFor(venmo), { chainId: 1 });
  t.like(unknownChain, { status: 400, body: { errorCode: 'UNSUPPORTED_CHAIN' } });

  const sameInLowerCase = await buyerVerify(enclave, venmo, prepared, intentFor(venmo), { verifyingContract: PAYMENT_VERIFIER.toLowerCase() });
  t.is(sameInLowerCase.status, 200);
  t.is(sameInLowerCase.body.responseObject.domain.verifyingContract, PAYMENT_VERIFIER);
});

test.serial('session material the enclave cannot open, or that does not fit the platform, is refused without quoting it', async (t) => {
  const prepared = preparePayment(enclave, venmo);
  const intent = intentFor(venmo);
  const notJwe = await enclave.post('/buyer/verify/venmo/transfer_venmo', {
    encryptedSessionMaterial: 'api_access_token=secret-cookie',
    params: prepared.params,
    intent,
    chainId: TEST_CHAIN_ID,
  });
  t.like(notJwe, { status: 400, body: { errorCode: 'INVALID_SESSION_MATERIAL' } });
  t.false(JSON.stringify(notJwe.body).includes('secret-cookie'));

  const other = await startTestEnclave();
  try {
    const sealedElsewhere = await other.seal(prepared.material, paymentUse(venmo, intent));
    const foreign = await enclave.post('/buyer/verify/venmo/transfer_venmo', {
      encryptedSessionMaterial: sealedElsewhere,
      params: prepared.params,
      intent,
      chainId: TEST_CHAIN_ID,
    });
    t.like(foreign, { status: 400, body: { errorCode: 'INVALID_SESSION_MATERIAL' } });
  } finally {
    await other.stop();
  }

  const wrongShape = await buyerVerify(enclave, venmo, { ...prepared, material: { cookie: 'lowercase-secret', extra: 'x' } }, intent);
  t.like(wrongShape, { status: 400, body: { errorCode: 'INVALID_SESSION_MATERIAL' } });
  t.regex(wrongShape.body.message, /Cookie/);
  t.false(JSON.stringify(wrongShape.body).includes('lowercase-secret'));

  const smuggled = await buyerVerify(enclave, venmo, { ...prepared, material: { Cookie: 'a=b\r\nX-Forwarded-Host: evil.example' } }, intent);
  t.like(smuggled, { status: 400, body: { errorCode: 'INVALID_SESSION_MATERIAL' } });
});

test.serial('params are checked per platform', async (t) => {
  const prepared = preparePayment(enclave, wise);
  const noProfile = await buyerVerify(enclave, wise, { ...prepared, params: { PAYMENT_ID: prepared.params.PAYMENT_ID! } }, intentFor(wise));
  t.like(noProfile, { status: 400, body: { errorCode: 'INVALID_PARAMS' } });
  t.regex(noProfile.body.message, /params\.PROFILE_ID/);
  const pathy = await buyerVerify(enclave, wise, { ...prepared, params: { ...prepared.params, PAYMENT_ID: '../../admin' } }, intentFor(wise));
  t.like(pathy, { status: 400, body: { errorCode: 'INVALID_PARAMS' } });
  const otherProfile = await buyerVerify(enclave, wise, { ...prepared, params: { ...prepared.params, PROFILE_ID: '1' } }, intentFor(wise));
  t.like(otherProfile, { status: 422, body: { errorCode: 'SESSION_REJECTED' } });
});

test.serial('a malformed intent snapshot names the fields at fault', async (t) => {
  const prepared = preparePayment(enclave, venmo);
  const bad = await buyerVerify(
    enclave,
    venmo,
    prepared,
    intentFor(venmo, { amount: '25.5', conversionRate: 1.02, payeeDetails: 'mary', fiatCurrency: 'usd' }),
  );
  t.like(bad, { status: 400, body: { errorCode: 'INVALID_REQUEST', responseObject: null } });
  for (const field of ['intent.amount', 'intent.conversionRate', 'intent.payeeDetails', 'intent.fiatCurrency']) t.true(bad.body.message.includes(field), field);
  // The buffer is the service's setting per platform: a request that names one is refused, even a modest one.
  const buffered = await buyerVerify(enclave, venmo, prepared, intentFor(venmo, { timestampBuffer: 60_000 }));
  t.like(buffered, { status: 400, body: { errorCode: 'INVALID_REQUEST' } });
  t.regex(buffered.body.message, /timestampBuffer/);
});

test.serial('an intent whose expiry is not after its signal, or that names none, is refused before any platform is asked', async (t) => {
  const prepared = preparePayment(enclave, venmo);
  const signalled = intentFor(venmo);
  for (const expiryTime of [signalled.signalTimestamp, signalled.signalTimestamp - 1, undefined]) {
    const [refused, calls] = await platformCalls('venmo', () => buyerVerify(enclave, venmo, prepared, { ...signalled, expiryTime }));
    t.like(refused, { status: 400, body: { success: false, errorCode: 'INVALID_REQUEST', responseObject: null } }, String(expiryTime));
    t.regex(refused.body.message, /intent\.expiryTime/);
    t.is(calls, 0);
  }
  const [atSignal] = await platformCalls('venmo', () => buyerVerify(enclave, venmo, prepared, { ...signalled, expiryTime: signalled.signalTimestamp }));
  t.is(atSignal.body.message, 'intent.expiryTime: must be after signalTimestamp');
});

test.serial('a signal or expiry too far ahead to be a date is refused as input, never a 500', async (t) => {
  const prepared = preparePayment(enclave, venmo);
  const signalled = intentFor(venmo);
  // Fifteen digits of seconds are past the last instant a Date holds (8.64e15 ms): the refusal message once tried to print one.
  for (const times of [
    { signalTimestamp: '999999999999998', expiryTime: '999999999999999' },
    { signalTimestamp: 1_000_000_000_000, expiryTime: 1_000_000_000_001 },
  ]) {
    const [refused, calls] = await platformCalls('venmo', () => buyerVerify(enclave, venmo, prepared, { ...signalled, ...times }));
    t.like(refused, { status: 400, body: { success: false, errorCode: 'INVALID_REQUEST', responseObject: null } }, JSON.stringify(times));
    t.regex(refused.body.message, /intent\.signalTimestamp/);
    t.is(calls, 0);
  }
});

test.serial('bodies must be JSON; unknown routes answer in the envelope', async (t) => {
  const notJson = await enclave.post('/buyer/verify/venmo/transfer_venmo', 'x=1', { 'content-type': 'application/x-www-form-urlencoded' });
  t.like(notJson, { status: 415, body: { errorCode: 'UNSUPPORTED_MEDIA_TYPE', success: false } });
  const broken = await enclave.post('/buyer/verify/venmo/transfer_venmo', '{"encryptedSessionMaterial":');
  t.like(broken, { status: 400, body: { errorCode: 'INVALID_JSON' } });
  const nowhere = await enclave.get('/seller/anything');
  t.like(nowhere, { status: 404, body: { errorCode: 'NOT_FOUND', success: false, responseObject: null } });
});

test.serial('a known path asked with another method is 405, not 404', async (t) => {
  t.like(await enclave.get('/identity'), { status: 405, body: { errorCode: 'METHOD_NOT_ALLOWED', success: false } });
});
