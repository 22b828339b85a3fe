import test from 'ava';
import { keccak256, toBytes, verifyTypedData, type Hex } from 'viem';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { IDENTITY_ATTESTATION_DOMAIN, IDENTITY_ATTESTATION_TYPES, canonicalIdentityHash } from '../../enclave/attestation/identity-attestation.js';
import type { SimAccount } from '../../enclave/simulator/index.js';
import { PAYMENT_VERIFIER, TEST_CHAIN_ID, startTestEnclave, type TestEnclave } from '../support/enclave.js';

let enclave: TestEnclave;
test.before(async () => {
  enclave = await startTestEnclave();
});
test.after.always(async () => enclave?.stop());

const caller = privateKeyToAccount(generatePrivateKey()).address;

const actions: {
  platform: string;
  actionType: string;
  account: SimAccount;
  params: (a: SimAccount) => Record<string, string>;
  payeeId: string;
  username: string;
}[] = [
  {
    platform: 'venmo',
    actionType: 'register_venmo',
    account: { id: '3141592653', username: 'maker-mary' },
    params: (a) => ({ SENDER_ID: a.id }),
    payeeId: '3141592653',
    username: 'maker-mary',
  },
  {
    platform: 'paypal',
    actionType: 'register_paypal',
    account: { id: 'PPUSER1', username: 'Mary Maker', handle: 'Mary@Example.com' },
    params: () => ({}),
    payeeId: 'mary@example.com',
    username: 'Mary Maker',
  },
  {
    platform: 'wise',
    actionType: 'register_wise',
    account: { id: '55501234', username: 'Mary', handle: '@marym' },
    params: (a) => ({ PROFILE_ID: a.id }),
    payeeId: '55501234',
    username: '@marym',
  },
  {
    platform: 'cashapp',
    actionType: 'register_cashapp',
    account: { id: '77', username: 'MakerMary', handle: '$MakerMary' },
    params: () => ({}),
    payeeId: 'makermary',
    username: '$MakerMary',
  },
  {
    platform: 'alipay',
    actionType: 'register_alipay',
    account: { id: '2088000000000001', username: 'mary', handle: 'mary@example.com' },
    params: () => ({}),
    payeeId: '2088000000000001',
    username: 'mary',
  },
];

for (const action of actions) {
  test(`${action.actionType}: the account behind the session is attested for the caller`, async (t) => {
    const material = enclave.simulator.openSession(action.platform, action.account);
    const { status, body } = await enclave.post('/identity', {
      platform: action.platform,
      actionType: action.actionType,
      callerAddress: caller.toLowerCase(),
      encryptedSessionMaterial: await enclave.seal(material, { purpose: 'identity', platform: action.platform, callerAddress: caller }),
      params: action.params(action.account),
      chainId: TEST_CHAIN_ID,
    });
    t.is(status, 200, JSON.stringify(body));
    const { identity, typedDataValue, signature, signer } = body.responseObject;
    t.is(signer, enclave.service.signer);
    t.like(identity, {
      platform: action.platform,
      actionType: action.actionType,
      payeeId: action.payeeId,
      username: action.username,
      payeeIdHash: keccak256(toBytes(action.payeeId)),
    });
    t.is(typedDataValue.callerAddress, caller);
    t.is(
      typedDataValue.dataHash,
      canonicalIdentityHash({ platform: action.platform, actionType: action.actionType, payeeId: action.payeeId, username: action.username }),
    );
    t.is(BigInt(typedDataValue.validUntil) - BigInt(typedDataValue.issuedAt), 86_400n);
    t.true(
      await verifyTypedData({
        address: signer,
        domain: { ...IDENTITY_ATTESTATION_DOMAIN, chainId: TEST_CHAIN_ID, verifyingContract: PAYMENT_VERIFIER },
        types: IDENTITY_ATTESTATION_TYPES,
        primaryType: 'IdentityAttestation',
        message: { ...typedDataValue, issuedAt: BigInt(typedDataValue.issuedAt), validUntil: BigInt(typedDataValue.validUntil) },
        signature: signature as Hex,
      }),
    );
  });
}

test('a Venmo session of another account than SENDER_ID is not attested', async (t) => {
  const material = enclave.simulator.openSession('venmo', { id: '1111', username: 'someone' });
  const response = await enclave.post('/identity', {
    platform: 'venmo',
    actionType: 'register_venmo',
    callerAddress: caller,
    encryptedSessionMaterial: await enclave.seal(material, { purpose: 'identity', platform: 'venmo', callerAddress: caller }),
    params: { SENDER_ID: '2222' },
    chainId: TEST_CHAIN_ID,
  });
  t.like(response, { status: 422, body: { errorCode: 'IDENTITY_NOT_VERIFIED' } });
});

test('a Cash App registration replays only the canonical MY_ACTIVITY_WEB_V2 request', async (t) => {
  const material = enclave.simulator.openSession('cashapp', { id: '78', username: 'x', handle: '$x' });
  const response = await enclave.post('/identity', {
    platform: 'cashapp',
    actionType: 'register_cashapp',
    callerAddress: caller,
    encryptedSessionMaterial: await enclave.seal(
      { ...material, requestPayload: JSON.stringify({ activity_scope: 'ALL_PAYMENTS', page_size: 50 }) },
      { purpose: 'identity', platform: 'cashapp', callerAddress: caller },
    ),
    params: {},
    chainId: TEST_CHAIN_ID,
  });
  t.like(response, { status: 400, body: { errorCode: 'INVALID_SESSION_MATERIAL' } });
  t.regex(response.body.message, /requestPayload: must be the canonical MY_ACTIVITY_WEB_V2 request body/);
});

test('identity requests are checked: action, caller address, params', async (t) => {
  const material = enclave.simulator.openSession('paypal', { id: 'P', username: 'p' });
  const sealed = await enclave.seal(material, { purpose: 'identity', platform: 'paypal', callerAddress: caller });
  const unknown = await enclave.post('/identity', {
    platform: 'paypal',
    actionType: 'register_venmo',
    callerAddress: caller,
    encryptedSessionMaterial: sealed,
    params: {},
    chainId: TEST_CHAIN_ID,
  });
  t.like(unknown, { status: 400, body: { errorCode: 'UNSUPPORTED_ACTION' } });
  const noCaller = await enclave.post('/identity', {
    platform: 'paypal',
    actionType: 'register_paypal',
    callerAddress: 'me',
    encryptedSessionMaterial: sealed,
    params: {},
    chainId: TEST_CHAIN_ID,
  });
  t.like(noCaller, { status: 400, body: { errorCode: 'INVALID_REQUEST' } });
  t.regex(noCaller.body.message, /callerAddress/);
  const extraParams = await enclave.post('/identity', {
    platform: 'paypal',
    actionType: 'register_paypal',
    callerAddress: caller,
    encryptedSessionMaterial: sealed,
    params: { URL: 'https://evil.example' },
    chainId: TEST_CHAIN_ID,
  });
  t.like(extraParams, { status: 400, body: { errorCode: 'INVALID_PARAMS' } });
});

test('session material sealed for one caller, or to prove a payment, does not register an identity for another caller', async (t) => {
  const account = { id: '3333', username: 'maker' };
  const material = enclave.simulator.openSession('venmo', account);
  const other = privateKeyToAccount(generatePrivateKey()).address;
  const body = (sealed: string, callerAddress: string) => ({
    platform: 'venmo',
    actionType: 'register_venmo',
    callerAddress,
    encryptedSessionMaterial: sealed,
    params: { SENDER_ID: account.id },
    chainId: TEST_CHAIN_ID,
  });
  const forCaller = await enclave.seal(material, { purpose: 'identity', platform: 'venmo', callerAddress: caller });
  t.is((await enclave.post('/identity', body(forCaller, caller))).status, 200);
  t.like(await enclave.post('/identity', body(forCaller, other)), { status: 400, body: { errorCode: 'SESSION_CONTEXT_MISMATCH' } });
  const forPayment = await enclave.seal(material, { purpose: 'payment', platform: 'venmo', chainId: 8453, intentHash: `0x${'cc'.repeat(32)}` });
  t.like(await enclave.post('/identity', body(forPayment, caller)), { status: 400, body: { errorCode: 'SESSION_CONTEXT_MISMATCH' } });
});

test("the identity attestation names its chain and verifier: it does not verify in another chain's domain, and an unknown chain is refused", async (t) => {
  const account = { id: '4444', username: 'maker' };
  const material = enclave.simulator.openSession('venmo', account);
  const sealed = await enclave.seal(material, { purpose: 'identity', platform: 'venmo', callerAddress: caller });
  const request = {
    platform: 'venmo',
    actionType: 'register_venmo',
    callerAddress: caller,
    encryptedSessionMaterial: sealed,
    params: { SENDER_ID: account.id },
  };
  const { status, body } = await enclave.post('/identity', { ...request, chainId: TEST_CHAIN_ID });
  t.is(status, 200);
  const { domain, typedDataValue, signature, signer } = body.responseObject;
  t.deepEqual(domain, { ...IDENTITY_ATTESTATION_DOMAIN, chainId: TEST_CHAIN_ID, verifyingContract: PAYMENT_VERIFIER });
  const message = { ...typedDataValue, issuedAt: BigInt(typedDataValue.issuedAt), validUntil: BigInt(typedDataValue.validUntil) };
  const verifies = (inDomain: typeof domain) =>
    verifyTypedData({
      address: signer,
      domain: inDomain,
      types: IDENTITY_ATTESTATION_TYPES,
      primaryType: 'IdentityAttestation',
      message,
      signature: signature as Hex,
    });
  t.true(await verifies(domain));
  t.false(await verifies({ ...domain, chainId: 10 }));
  t.false(await verifies({ name: domain.name, version: domain.version }));
  t.like(await enclave.post('/identity', { ...request, chainId: 999 }), { status: 400, body: { errorCode: 'UNSUPPORTED_CHAIN' } });
  t.like(await enclave.post('/identity', request), { status: 400, body: { errorCode: 'INVALID_REQUEST' } });
});
