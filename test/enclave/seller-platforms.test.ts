/**
 * The seller path on Cash App and Wise, through the simulator: the maker's kept session
 * reads a payment it received by the id on the customer's receipt, and the seller-side
 * checks (received by the maker, memo naming the intent, amount, window) hold there as
 * on Venmo.
 */
import test from 'ava';
import { keccak256, toBytes } from 'viem';
import { paymentReference } from '../../enclave/index.js';
import { SELLER_PLATFORMS } from '../../enclave/platforms/index.js';
import { FIAT_RAILS, SELLER_RELEASE_RAILS, isSellerReleaseRail } from '../../machines/rails.js';
import {
  EXPIRY_TIME,
  OWED_CENTS,
  PLATFORM_FIXTURES,
  SIGNAL_TIMESTAMP,
  TEST_CHAIN_ID,
  buyerVerify,
  intentFor,
  isSignedPaymentAttestation,
  preparePayment,
  startTestEnclave,
  type TestEnclave,
} from '../support/enclave.js';
import { keepCredential, makerSession, receivedPayment, type MakerSession } from '../support/seller.js';

const resolve = (enclave: TestEnclave, session: MakerSession, paymentId: string, intent: Record<string, unknown>, params: Record<string, string> = {}) =>
  enclave.post(`/seller/verify/${session.platform}/${session.fixture.actionType}`, {
    params: { PAYMENT_ID: paymentId, ...params },
    intent,
    chainId: TEST_CHAIN_ID,
  });

const credentialOf = async (enclave: TestEnclave, session: MakerSession) =>
  (await enclave.get(`/seller/credentials/${session.platform}/${session.payeeDetails}`)).body.responseObject;

test("the enclave's seller platforms are the rails machines/ names for seller release, and PayPal is not one", (t) => {
  t.deepEqual([...SELLER_PLATFORMS].sort(), [...SELLER_RELEASE_RAILS].sort());
  t.deepEqual(
    FIAT_RAILS.filter((rail) => isSellerReleaseRail(rail)),
    ['venmo', 'cashapp', 'wise'],
  );
  t.false(isSellerReleaseRail('paypal'));
  t.false(SELLER_PLATFORMS.includes('paypal'));
});

for (const platform of ['cashapp', 'wise'] as const) {
  test(`${platform}: a kept credential resolves the payment its receipt id names into a signed seller attestation`, async (t) => {
    const enclave = await startTestEnclave();
    t.teardown(() => enclave.stop());
    const session = makerSession(enclave, { platform });
    t.like(await keepCredential(enclave, session), { platform, payeeDetails: session.payeeDetails, status: 'ACTIVE', available: true });
    const intent = intentFor(session.fixture);
    const other = intentFor(session.fixture);
    // The memo names two intents, so only the claim on the payment id keeps it from paying the second too.
    const paid = receivedPayment(enclave, session, { note: `order 1042 ${paymentReference(intent.intentHash)} ${paymentReference(other.intentHash)}` });

    const { status, body } = await resolve(enclave, session, paid.paymentId, intent);
    t.is(status, 200, JSON.stringify(body));
    t.like(body.responseObject, {
      metadata: { source: 'seller-tee', platform, actionType: session.fixture.actionType },
      typedDataValue: { intentHash: intent.intentHash, releaseAmount: intent.amount },
      paymentDetails: { amount: OWED_CENTS.toString(), timestamp: String(paid.timestampMs) },
    });
    t.true(await isSignedPaymentAttestation(body.responseObject, enclave.service.signer));
    t.truthy((await credentialOf(enclave, session)).lastResolvedAt);
    t.like(await resolve(enclave, session, paid.paymentId, other), { status: 409, body: { errorCode: 'PAYMENT_ID_ALREADY_USED' } });
  });

  test(`${platform}: an id the maker's account never received is PAYMENT_NOT_FOUND, and the credential stays active`, async (t) => {
    const enclave = await startTestEnclave();
    t.teardown(() => enclave.stop());
    const session = makerSession(enclave, { platform });
    await keepCredential(enclave, session);
    const intent = intentFor(session.fixture);
    receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
    // A payment the buyer recorded in their own session is not the maker's to read.
    const elsewhere = preparePayment(enclave, session.fixture, { note: paymentReference(intent.intentHash) });

    for (const paymentId of [session.fixture.paymentId(), elsewhere.payment.paymentId]) {
      t.like(await resolve(enclave, session, paymentId, intent), { status: 422, body: { errorCode: 'PAYMENT_NOT_FOUND' } });
    }
    t.like(await credentialOf(enclave, session), { status: 'ACTIVE', available: true, lastResolvedAt: null });
  });

  test(`${platform}: money the maker sent, a memo naming no intent or another, a short, early or late payment, and another payee's intent are refused`, async (t) => {
    const enclave = await startTestEnclave();
    t.teardown(() => enclave.stop());
    const session = makerSession(enclave, { platform });
    await keepCredential(enclave, session);
    const intent = intentFor(session.fixture);
    const memo = paymentReference(intent.intentHash);
    const refusals: [string, Parameters<typeof receivedPayment>[2], string][] = [
      [
        'sent by the maker to another payee',
        { direction: 'outgoing', payer: session.fixture.payeeRaw, payee: session.fixture.otherPayeeRaw, note: memo },
        'PAYMENT_NOT_INCOMING',
      ],
      ['without a memo', {}, 'MEMO_MISMATCH'],
      ["naming another intent's reference", { note: paymentReference(intentFor(session.fixture).intentHash) }, 'MEMO_MISMATCH'],
      ['one cent short', { amount: OWED_CENTS - 1n, note: memo }, 'AMOUNT_TOO_LOW'],
      ['an hour before the signal', { timestampMs: SIGNAL_TIMESTAMP * 1000 - 3_600_000, note: memo }, 'PAYMENT_BEFORE_INTENT'],
      ['an hour after the expiry', { timestampMs: EXPIRY_TIME * 1000 + 3_600_000, note: memo }, 'PAYMENT_AFTER_INTENT'],
      ['still pending', { status: 'pending', note: memo }, 'PAYMENT_NOT_COMPLETED'],
    ];
    for (const [what, payment, errorCode] of refusals) {
      const recorded = receivedPayment(enclave, session, payment);
      t.like(await resolve(enclave, session, recorded.paymentId, intent), { status: 422, body: { errorCode } }, what);
    }
    // An intent paying another payee picks that payee's credential, which this maker does not keep.
    const paid = receivedPayment(enclave, session, { note: memo });
    const otherPayee = { ...intent, payeeDetails: keccak256(toBytes(session.fixture.otherPayeeRaw)) };
    t.like(await resolve(enclave, session, paid.paymentId, otherPayee), { status: 422, body: { errorCode: 'SELLER_CREDENTIAL_UNAVAILABLE' } });
    t.like(await credentialOf(enclave, session), { status: 'ACTIVE', lastResolvedAt: null });
    t.is((await resolve(enclave, session, paid.paymentId, intent)).status, 200, 'the refusals spent nothing');
  });

  test(`${platform}: an upload is kept only for the payee the session's own account is`, async (t) => {
    const enclave = await startTestEnclave();
    t.teardown(() => enclave.stop());
    const session = makerSession(enclave, { platform });
    const body = await session.uploadBody({ payeeDetails: keccak256(toBytes(session.fixture.otherPayeeRaw)) });
    t.like(await enclave.post(`/seller/credentials/${platform}`, body), { status: 422, body: { errorCode: 'CREDENTIAL_PAYEE_MISMATCH' } });
  });

  test(`${platform}: the buyer path reads the payment alone, without the account read the seller path makes`, async (t) => {
    const enclave = await startTestEnclave();
    t.teardown(() => enclave.stop());
    const fixture = PLATFORM_FIXTURES.find((candidate) => candidate.platform === platform)!;
    const prepared = preparePayment(enclave, fixture);
    const before = enclave.simulator.requests.get(platform) ?? 0;
    t.is((await buyerVerify(enclave, fixture, prepared, intentFor(fixture))).status, 200);
    t.is(enclave.simulator.requests.get(platform), before + 1);
  });
}

test("wise: the seller path names the maker's profile itself; a caller naming one is refused before the platform is asked", async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const session = makerSession(enclave, { platform: 'wise' });
  await keepCredential(enclave, session);
  const intent = intentFor(session.fixture);
  const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
  const before = enclave.simulator.requests.get('wise');
  // Another profile's path would be refused by Wise, and that refusal would end the maker's credential.
  for (const profile of ['55509999', session.fixture.payeeId]) {
    t.like(await resolve(enclave, session, paid.paymentId, intent, { PROFILE_ID: profile }), { status: 400, body: { errorCode: 'INVALID_PARAMS' } });
  }
  t.is(enclave.simulator.requests.get('wise'), before);
  t.like(await credentialOf(enclave, session), { status: 'ACTIVE' });
  t.is((await resolve(enclave, session, paid.paymentId, intent)).status, 200);
});

test('cashapp: a session the platform ended disables the payee until a new upload', async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const session = makerSession(enclave, { platform: 'cashapp' });
  await keepCredential(enclave, session);
  const intent = intentFor(session.fixture);
  const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
  enclave.simulator.expireSession('cashapp', session.material);
  t.like(await resolve(enclave, session, paid.paymentId, intent), { status: 422, body: { errorCode: 'SELLER_CREDENTIAL_REJECTED' } });
  t.like(await credentialOf(enclave, session), { status: 'REJECTED', enabled: false });
});
