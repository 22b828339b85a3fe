/**
 * The seller path: a maker keeps a platform session with the service, sealed to the
 * enclave, and the service attests payments the maker received without the buyer's
 * session, each tied to its intent by the reference in its memo.
 */
import test from 'ava';
import { keccak256, toBytes } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EmbeddedStore } from '../../actors/index.js';
import { SELLER_CREDENTIALS_COLLECTION, paymentReference, revocationMessage } from '../../enclave/index.js';
import { interceptedStore } from '../support/intercepted-store.js';
import {
  EXPIRY_TIME,
  OWED_CENTS,
  PAYMENT_VERIFIER,
  SIGNAL_TIMESTAMP,
  TEST_CHAIN_ID,
  TEST_NOW,
  intentFor,
  isSignedPaymentAttestation,
  startTestEnclave,
  type TestEnclave,
} from '../support/enclave.js';
import { SELLER_PAYEE, makerSession, receivedPayment, venmo, type MakerSession } from '../support/seller.js';

const payeeDetails = SELLER_PAYEE;
const DAY = 86_400;

async function upload(enclave: TestEnclave, session: MakerSession, extra: Record<string, unknown> = {}) {
  return enclave.post('/seller/credentials/venmo', await session.uploadBody(extra));
}

const resolve = (enclave: TestEnclave, paymentId: string, intent: Record<string, unknown>) =>
  enclave.post('/seller/verify/venmo/transfer_venmo', { params: { PAYMENT_ID: paymentId }, intent, chainId: TEST_CHAIN_ID });

test('a kept credential makes the payee enabled and available, and the store holds only ciphertext', async (t) => {
  const store = new EmbeddedStore();
  const enclave = await startTestEnclave({ store });
  t.teardown(() => enclave.stop());
  t.deepEqual((await enclave.get('/seller/supported')).body.responseObject, {
    platforms: [
      { platform: 'venmo', actionType: 'transfer_venmo' },
      { platform: 'cashapp', actionType: 'transfer_cashapp' },
      { platform: 'wise', actionType: 'transfer_wise' },
    ],
  });
  const session = makerSession(enclave);
  const { status, body } = await upload(enclave, session);
  t.is(status, 201, JSON.stringify(body));
  t.like(body.responseObject, {
    platform: 'venmo',
    payeeDetails,
    owner: session.owner.address,
    status: 'ACTIVE',
    enabled: true,
    available: true,
    expiresAt: new Date(TEST_NOW + 7 * DAY * 1000).toISOString(),
  });
  t.regex(body.responseObject.credentialId, /^scr_[0-9a-f]{24}$/);
  t.false('sealed' in body.responseObject);
  t.deepEqual((await enclave.get(`/seller/credentials/venmo/${payeeDetails}`)).body.responseObject, body.responseObject);

  const kept = await (await store.collection(SELLER_CREDENTIALS_COLLECTION)).find({});
  t.is(kept.length, 1);
  const cookie = String(session.material.Cookie);
  t.false(JSON.stringify(kept).includes(cookie), 'the cookie is kept sealed');
  t.false(enclave.logs.join('').includes(cookie), 'and never logged');
});

test("an upload is refused unless the session is the payee's own, sealed for the seller path by its caller, on a platform the path serves", async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const session = makerSession(enclave);
  const now = Math.floor(TEST_NOW / 1000);

  t.like(await upload(enclave, session, { payeeDetails: keccak256(toBytes(venmo.otherPayeeRaw)) }), {
    status: 422,
    body: { errorCode: 'CREDENTIAL_PAYEE_MISMATCH' },
  });
  const other = privateKeyToAccount(generatePrivateKey());
  t.like(await upload(enclave, session, { encryptedSessionMaterial: await session.seal({ callerAddress: other.address }) }), {
    status: 400,
    body: { errorCode: 'SESSION_CONTEXT_MISMATCH' },
  });
  t.like(await upload(enclave, session, { encryptedSessionMaterial: await session.seal({ purpose: 'identity' }) }), {
    status: 400,
    body: { errorCode: 'SESSION_CONTEXT_MISMATCH' },
  });
  t.like(await upload(enclave, session, { expiresAt: now + 31 * DAY }), { status: 400, body: { errorCode: 'INVALID_REQUEST' } });
  t.like(await upload(enclave, session, { expiresAt: now }), { status: 400, body: { errorCode: 'INVALID_REQUEST' } });
  t.like(await upload(enclave, session, { surprise: true }), { status: 400, body: { errorCode: 'INVALID_REQUEST' } });
  const body = { encryptedSessionMaterial: await session.seal(), callerAddress: session.owner.address, payeeDetails, expiresAt: now + DAY };
  // Document 1 refuses PayPal for seller release: it stays off the seller path.
  t.like(await enclave.post('/seller/credentials/paypal', body), { status: 404, body: { errorCode: 'UNSUPPORTED_PLATFORM' } });
  t.like(await enclave.get(`/seller/credentials/venmo/${payeeDetails}`), { status: 404, body: { errorCode: 'CREDENTIAL_NOT_FOUND' } });
  t.like(await enclave.get('/seller/credentials/venmo/0x1234'), { status: 400, body: { errorCode: 'INVALID_REQUEST' } });

  enclave.simulator.expireSession('venmo', session.material);
  t.like(await upload(enclave, session), { status: 422, body: { errorCode: 'SESSION_REJECTED' } });
});

test('the seller path attests a payment the payee received whose memo names the intent, with the seller source tag', async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const session = makerSession(enclave);
  t.is((await upload(enclave, session)).status, 201);
  const intent = intentFor(venmo);
  const other = intentFor(venmo);
  // A memo naming two intents still pays one: whichever is resolved first spends the payment.
  const payment = receivedPayment(enclave, session, {
    note: `coffee beans ${paymentReference(intent.intentHash).toLowerCase()}, ${paymentReference(other.intentHash)}`,
  });

  const { status, body } = await resolve(enclave, payment.paymentId, intent);
  t.is(status, 200, JSON.stringify(body));
  t.like(body.responseObject, {
    metadata: { source: 'seller-tee', platform: 'venmo', actionType: 'transfer_venmo' },
    typedDataValue: { intentHash: intent.intentHash, releaseAmount: intent.amount },
  });
  t.true(await isSignedPaymentAttestation(body.responseObject, enclave.service.signer));
  t.truthy((await enclave.get(`/seller/credentials/venmo/${payeeDetails}`)).body.responseObject.lastResolvedAt);

  // Asked again for the same intent, the same data is signed again; for another intent the payment is spent.
  t.is((await resolve(enclave, payment.paymentId, intent)).status, 200);
  t.like(await resolve(enclave, payment.paymentId, other), { status: 409, body: { errorCode: 'PAYMENT_ID_ALREADY_USED' } });
  t.false(enclave.logs.join('').includes(String(session.material.Cookie)), 'the kept session is never logged while resolving');
});

test("a payment whose memo names no intent, or another intent, is refused: another buyer's payment cannot fulfil an attacker's intent", async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const session = makerSession(enclave);
  await upload(enclave, session);
  const victim = intentFor(venmo);
  const attacker = intentFor(venmo);
  const paid = receivedPayment(enclave, session, { note: paymentReference(victim.intentHash) });
  t.like(await resolve(enclave, paid.paymentId, attacker), { status: 422, body: { errorCode: 'MEMO_MISMATCH' } });
  const bare = receivedPayment(enclave, session);
  t.like(await resolve(enclave, bare.paymentId, victim), { status: 422, body: { errorCode: 'MEMO_MISMATCH' } });
  // The reference must stand as a word of its own, not inside a longer one.
  const glued = receivedPayment(enclave, session, { note: `${paymentReference(victim.intentHash)}7` });
  t.like(await resolve(enclave, glued.paymentId, victim), { status: 422, body: { errorCode: 'MEMO_MISMATCH' } });
  // Money the maker sent (a refund to the buyer, say) proves no payment to the maker.
  const sent = receivedPayment(enclave, session, {
    direction: 'outgoing',
    payer: venmo.payeeId,
    payee: '7777000111',
    note: paymentReference(victim.intentHash),
  });
  t.like(await resolve(enclave, sent.paymentId, victim), { status: 422, body: { errorCode: 'PAYMENT_NOT_INCOMING' } });
  // The ordinary rules hold as on the buyer path.
  const short = receivedPayment(enclave, session, { amount: OWED_CENTS - 1n, note: paymentReference(victim.intentHash) });
  t.like(await resolve(enclave, short.paymentId, victim), { status: 422, body: { errorCode: 'AMOUNT_TOO_LOW' } });
  const early = receivedPayment(enclave, session, { timestampMs: SIGNAL_TIMESTAMP * 1000 - 3_600_000, note: paymentReference(victim.intentHash) });
  t.like(await resolve(enclave, early.paymentId, victim), { status: 422, body: { errorCode: 'PAYMENT_BEFORE_INTENT' } });
  const late = receivedPayment(enclave, session, { timestampMs: EXPIRY_TIME * 1000 + 3_600_000, note: paymentReference(victim.intentHash) });
  t.like(await resolve(enclave, late.paymentId, victim), { status: 422, body: { errorCode: 'PAYMENT_AFTER_INTENT' } });
});

test('without an available credential the path refuses; a session the platform ended disables the payee until a new upload', async (t) => {
  let now = TEST_NOW;
  const enclave = await startTestEnclave({ now: () => now });
  t.teardown(() => enclave.stop());
  const intent = intentFor(venmo);
  t.like(await resolve(enclave, venmo.paymentId(), intent), { status: 422, body: { errorCode: 'SELLER_CREDENTIAL_UNAVAILABLE' } });

  const session = makerSession(enclave);
  await upload(enclave, session, { expiresAt: Math.floor(now / 1000) + DAY });
  const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
  now += DAY * 1000 + 1000;
  t.like((await enclave.get(`/seller/credentials/venmo/${payeeDetails}`)).body.responseObject, { status: 'ACTIVE', enabled: true, available: false });
  t.like(await resolve(enclave, paid.paymentId, intent), { status: 422, body: { errorCode: 'SELLER_CREDENTIAL_UNAVAILABLE' } });

  await upload(enclave, session);
  enclave.simulator.expireSession('venmo', session.material);
  t.like(await resolve(enclave, paid.paymentId, intent), { status: 422, body: { errorCode: 'SELLER_CREDENTIAL_REJECTED' } });
  t.like((await enclave.get(`/seller/credentials/venmo/${payeeDetails}`)).body.responseObject, { status: 'REJECTED', enabled: false, available: false });
});

test('only the uploader revokes, by signing for this credential now; a revoked credential resolves nothing', async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const session = makerSession(enclave);
  const { credentialId } = (await upload(enclave, session)).body.responseObject;
  const issuedAt = Math.floor(TEST_NOW / 1000);
  const revoke = async (signer = session.owner, at = issuedAt, id = credentialId) =>
    enclave.post(`/seller/credentials/venmo/${payeeDetails}/revoke`, {
      issuedAt: at,
      signature: await signer.signMessage({ message: revocationMessage(id, at) }),
    });

  t.like(await revoke(privateKeyToAccount(generatePrivateKey())), { status: 403, body: { errorCode: 'REVOCATION_NOT_AUTHORIZED' } });
  t.like(await revoke(session.owner, issuedAt, 'scr_000000000000000000000000'), { status: 403, body: { errorCode: 'REVOCATION_NOT_AUTHORIZED' } });
  t.like(await revoke(session.owner, issuedAt - 600), { status: 422, body: { errorCode: 'REVOCATION_STALE' } });
  const expiresAt = (await session.uploadBody()).expiresAt;
  t.deepEqual(
    await enclave.service.activeSellerCredentials(),
    [{ platform: 'venmo', payeeDetails: payeeDetails.toLowerCase(), expiresAt }],
    'the orderbook sees the active credential',
  );
  t.like(await revoke(), { status: 200, body: { responseObject: { status: 'REVOKED', enabled: false, available: false } } });
  t.like(await revoke(), { status: 200, body: { responseObject: { status: 'REVOKED' } } });
  t.deepEqual(await enclave.service.activeSellerCredentials(), [], 'a revoked credential is not listed');

  const intent = intentFor(venmo);
  const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
  t.like(await resolve(enclave, paid.paymentId, intent), { status: 422, body: { errorCode: 'SELLER_CREDENTIAL_UNAVAILABLE' } });
});

test('a credential kept by one enclave does not open in an enclave with another signing key', async (t) => {
  const store = new EmbeddedStore();
  const first = await startTestEnclave({ store });
  const session = await makerSession(first);
  t.is((await upload(first, session)).status, 201);
  const intent = intentFor(venmo);
  const paid = receivedPayment(first, session, { note: paymentReference(intent.intentHash) });
  await first.stop();

  const second = await startTestEnclave({ store });
  t.teardown(() => second.stop());
  t.like((await second.get(`/seller/credentials/venmo/${payeeDetails}`)).body.responseObject, { status: 'ACTIVE', available: true });
  const { status, body } = await resolve(second, paid.paymentId, intent);
  t.is(status, 422);
  t.is(body.errorCode, 'SELLER_CREDENTIAL_UNAVAILABLE');
  t.regex(body.message, /another signing key/);
});

test("a revocation that lands while a payment is being resolved stays revoked: the resolution's write-back does not bring the credential back", async (t) => {
  let duringResolve: (() => Promise<void>) | null = null;
  const store = interceptedStore(new EmbeddedStore(), (spec, collection) =>
    spec.name === SELLER_CREDENTIALS_COLLECTION.name
      ? {
          updateOne: async (filter, update) => {
            const revoke = duringResolve;
            duringResolve = null;
            await revoke?.();
            return collection.updateOne(filter, update);
          },
        }
      : {},
  );
  const enclave = await startTestEnclave({ store });
  t.teardown(() => enclave.stop());
  const session = makerSession(enclave);
  const { credentialId } = (await upload(enclave, session)).body.responseObject;
  const intent = intentFor(venmo);
  const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
  duringResolve = async () => {
    const issuedAt = Math.floor(TEST_NOW / 1000);
    const revoked = await enclave.post(`/seller/credentials/venmo/${payeeDetails}/revoke`, {
      issuedAt,
      signature: await session.owner.signMessage({ message: revocationMessage(credentialId, issuedAt) }),
    });
    t.is(revoked.status, 200);
  };
  t.is((await resolve(enclave, paid.paymentId, intent)).status, 200, 'the payment was read before the revocation');
  t.is(duringResolve as unknown, null, 'the revocation ran inside the resolution');
  t.like((await enclave.get(`/seller/credentials/venmo/${payeeDetails}`)).body.responseObject, { status: 'REVOKED', enabled: false, lastResolvedAt: null });
});

test("document 3's verifyingContract rule holds on the seller path: when sent, it must be the verifier the chain id resolves to", async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const session = makerSession(enclave);
  await upload(enclave, session);
  const intent = intentFor(venmo);
  const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
  const body = { params: { PAYMENT_ID: paid.paymentId }, intent, chainId: TEST_CHAIN_ID };
  const other = `0x${'ab'.repeat(20)}`;
  t.like(await enclave.post('/seller/verify/venmo/transfer_venmo', { ...body, verifyingContract: other }), {
    status: 400,
    body: { errorCode: 'VERIFYING_CONTRACT_MISMATCH' },
  });
  const { status, body: answer } = await enclave.post('/seller/verify/venmo/transfer_venmo', { ...body, verifyingContract: PAYMENT_VERIFIER });
  t.is(status, 200);
  t.is(answer.responseObject.domain.verifyingContract, PAYMENT_VERIFIER);
});
