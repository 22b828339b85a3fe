import test from 'ava';
import { decodeAbiParameters, keccak256, toBytes, type Hex } from 'viem';
import { INTENT_SNAPSHOT_ABI, PAYMENT_DETAILS_ABI, decodePaymentProof } from '../../enclave/attestation/payment-attestation.js';
import {
  EXPIRY_TIME,
  INTENT_AMOUNT,
  OWED_CENTS,
  PAYMENT_VERIFIER,
  PLATFORM_FIXTURES,
  SIGNAL_TIMESTAMP,
  TEST_CHAIN_ID,
  buyerVerify,
  isSignedPaymentAttestation,
  intentFor,
  preparePayment,
  startTestEnclave,
  type TestEnclave,
} from '../support/enclave.js';

let enclave: TestEnclave;
test.before(async () => {
  enclave = await startTestEnclave();
});
test.after.always(async () => enclave?.stop());

const hash = (text: string) => keccak256(toBytes(text));

for (const fixture of PLATFORM_FIXTURES) {
  test(`${fixture.platform}: a payment that covers the intent is attested, and the signature verifies`, async (t) => {
    const prepared = preparePayment(enclave, fixture);
    const intent = intentFor(fixture);
    const { status, body } = await buyerVerify(enclave, fixture, prepared, intent);
    t.is(status, 200, JSON.stringify(body));
    const result = body.responseObject;
    t.is(result.signer, enclave.service.signer);
    t.deepEqual(result.metadata, { source: 'buyer-tee', platform: fixture.platform, actionType: fixture.actionType });
    t.deepEqual(result.domain, { name: 'UnifiedPaymentVerifier', version: '1', chainId: TEST_CHAIN_ID, verifyingContract: PAYMENT_VERIFIER });
    t.is(result.typedDataValue.releaseAmount, INTENT_AMOUNT.toString());
    t.is(result.typedDataValue.intentHash, intent.intentHash);
    t.is(result.typedDataValue.dataHash, keccak256(result.encodedPaymentDetails));
    t.true(await isSignedPaymentAttestation(result, enclave.service.signer));
    const [details, snapshot] = decodeAbiParameters([PAYMENT_DETAILS_ABI, INTENT_SNAPSHOT_ABI], result.encodedPaymentDetails as Hex);
    t.deepEqual(details, {
      method: hash(fixture.platform),
      payeeId: hash(fixture.payeeId),
      amount: OWED_CENTS,
      currency: hash(fixture.currency),
      timestamp: BigInt(prepared.payment.timestampMs),
      paymentId: hash(prepared.payment.paymentId),
    });
    t.is(snapshot.intentHash, intent.intentHash);
    t.is(snapshot.paymentMethod, hash(fixture.platform));
    t.is(snapshot.payeeDetails, intent.payeeDetails);
    t.is(snapshot.signalTimestamp, BigInt(SIGNAL_TIMESTAMP));
    t.is(snapshot.expiryTime, BigInt(EXPIRY_TIME));
    // The proof is the protocol's ABI-encoded PaymentAttestation, the service's signature its one signature.
    t.deepEqual(decodePaymentProof(result.paymentProof), {
      intentHash: result.typedDataValue.intentHash,
      releaseAmount: BigInt(result.typedDataValue.releaseAmount),
      dataHash: result.typedDataValue.dataHash,
      signatures: [result.signature],
      data: result.encodedPaymentDetails,
      metadata: '0x',
    });
  });

  const refusals: [string, Parameters<typeof preparePayment>[2], Record<string, unknown>, number, string][] = [
    ['a pending payment', { status: 'pending' }, {}, 422, 'PAYMENT_NOT_COMPLETED'],
    ['a reversed payment', { status: 'reversed' }, {}, 422, 'PAYMENT_NOT_COMPLETED'],
    ['a payment in another currency', {}, { fiatCurrency: fixture.currency === 'USD' ? 'EUR' : 'USD' }, 422, 'CURRENCY_MISMATCH'],
    ['a payment one cent short of the intent at its rate', { amount: OWED_CENTS - 1n }, {}, 422, 'AMOUNT_TOO_LOW'],
    ['a payment to someone else', { payee: fixture.otherPayeeRaw }, {}, 422, 'PAYEE_MISMATCH'],
    ['a payment made before the intent, beyond its buffer', { timestampMs: SIGNAL_TIMESTAMP * 1000 - 61_000 }, {}, 422, 'PAYMENT_BEFORE_INTENT'],
    ['a payment made after the intent expired, beyond its buffer', { timestampMs: EXPIRY_TIME * 1000 + 61_000 }, {}, 422, 'PAYMENT_AFTER_INTENT'],
    ["a payment the buyer's account received rather than sent", { direction: 'incoming' }, {}, 422, 'PAYMENT_NOT_OUTGOING'],
  ];
  for (const [what, payment, intentOverrides, status, errorCode] of refusals) {
    test(`${fixture.platform}: ${what} is refused with ${errorCode}`, async (t) => {
      const prepared = preparePayment(enclave, fixture, payment);
      const response = await buyerVerify(enclave, fixture, prepared, intentFor(fixture, intentOverrides));
      t.is(response.status, status);
      t.like(response.body, { success: false, statusCode: status, errorCode, responseObject: null });
    });
  }

  test(`${fixture.platform}: a payment id attested for one intent is refused for another, and re-attested for its own`, async (t) => {
    const prepared = preparePayment(enclave, fixture);
    const first = intentFor(fixture);
    t.is((await buyerVerify(enclave, fixture, prepared, first)).status, 200);
    const replay = await buyerVerify(enclave, fixture, prepared, intentFor(fixture));
    t.is(replay.status, 409);
    t.is(replay.body.errorCode, 'PAYMENT_ID_ALREADY_USED');
    const again = await buyerVerify(enclave, fixture, prepared, first);
    t.is(again.status, 200);
  });
}

test('a payment dated within the buffer before the signal is accepted', async (t) => {
  const fixture = PLATFORM_FIXTURES[0]!;
  const prepared = preparePayment(enclave, fixture, { timestampMs: SIGNAL_TIMESTAMP * 1000 - 59_000 });
  t.is((await buyerVerify(enclave, fixture, prepared, intentFor(fixture))).status, 200);
});

test('a payment dated within the buffer after the expiry is accepted, and one a millisecond beyond it is refused', async (t) => {
  const fixture = PLATFORM_FIXTURES[0]!;
  const lastMoment = preparePayment(enclave, fixture, { timestampMs: EXPIRY_TIME * 1000 + 60_000 });
  const accepted = await buyerVerify(enclave, fixture, lastMoment, intentFor(fixture));
  t.is(accepted.status, 200, JSON.stringify(accepted.body));
  const tooLate = preparePayment(enclave, fixture, { timestampMs: EXPIRY_TIME * 1000 + 60_001 });
  const refused = await buyerVerify(enclave, fixture, tooLate, intentFor(fixture));
  t.like(refused, { status: 422, body: { errorCode: 'PAYMENT_AFTER_INTENT', responseObject: null } });
  t.regex(refused.body.message, /after the intent expired at 2026-11-24T11:00:00\.000Z \(buffer 60000 ms\)/);
});

test('a refused payment does not use up its payment id', async (t) => {
  const fixture = PLATFORM_FIXTURES[1]!;
  const prepared = preparePayment(enclave, fixture);
  const tooDear = await buyerVerify(enclave, fixture, prepared, intentFor(fixture, { conversionRate: '2000000000000000000' }));
  t.is(tooDear.body.errorCode, 'AMOUNT_TOO_LOW');
  t.is((await buyerVerify(enclave, fixture, prepared, intentFor(fixture))).status, 200);
});

// Serial: the outage it sets is on the enclave every test of this file shares, and ava runs the others concurrently.
test.serial('an expired session, a missing payment and a platform outage are told apart', async (t) => {
  const fixture = PLATFORM_FIXTURES[0]!;
  const missing = preparePayment(enclave, fixture);
  const notThere = await buyerVerify(enclave, fixture, { ...missing, params: { PAYMENT_ID: '4100000000001' } }, intentFor(fixture));
  t.like(notThere, { status: 422, body: { errorCode: 'PAYMENT_NOT_FOUND' } });

  enclave.simulator.setOutage('venmo', 503);
  const outage = await buyerVerify(enclave, fixture, missing, intentFor(fixture));
  enclave.simulator.setOutage('venmo', null);
  t.like(outage, { status: 502, body: { errorCode: 'PLATFORM_UNAVAILABLE' } });

  enclave.simulator.expireSession('venmo', missing.material);
  const expired = await buyerVerify(enclave, fixture, missing, intentFor(fixture));
  t.like(expired, { status: 422, body: { errorCode: 'SESSION_REJECTED' } });
});

test("venmo: another payer's public story of a payment to the maker is refused: the payer must be the buyer's session", async (t) => {
  const venmo = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'venmo')!;
  // Somebody else paid the maker, publicly; the buyer offers that story as their own payment.
  const someoneElse = preparePayment(enclave, venmo, { public: true });
  const buyer = preparePayment(enclave, venmo, {});
  const offered = { ...buyer, params: { ...buyer.params, PAYMENT_ID: someoneElse.payment.paymentId } };
  const response = await buyerVerify(enclave, venmo, offered, intentFor(venmo));
  t.is(response.status, 422);
  t.like(response.body, { success: false, errorCode: 'PAYER_MISMATCH', responseObject: null });
  // The payer who made it can still prove it with their own session.
  t.is((await buyerVerify(enclave, venmo, someoneElse, intentFor(venmo))).status, 200);
});

test('paypal: money the maker sent the buyer is not a payment to the maker', async (t) => {
  const paypal = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'paypal')!;
  // In the buyer's activity, a transfer from the maker shows the maker as counterparty, with a positive amount.
  const prepared = preparePayment(enclave, paypal, { direction: 'incoming' });
  const response = await buyerVerify(enclave, paypal, prepared, intentFor(paypal));
  t.is(response.status, 422);
  t.like(response.body, { errorCode: 'PAYMENT_NOT_OUTGOING' });
});

test("the timestamp buffer is the service's, per platform: a payment 90 s before the signal or after the expiry passes where it is two minutes, not where it is the default minute", async (t) => {
  const configured = await startTestEnclave({ timestampBuffers: { venmo: 120_000 } });
  t.teardown(() => configured.stop());
  const venmo = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'venmo')!;
  const cashapp = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'cashapp')!;
  const early = { timestampMs: SIGNAL_TIMESTAMP * 1000 - 90_000 };
  const accepted = await buyerVerify(configured, venmo, preparePayment(configured, venmo, early), intentFor(venmo));
  t.is(accepted.status, 200);
  // The buffer used is the one signed into the snapshot the chain checks.
  const [, snapshot] = decodeAbiParameters([PAYMENT_DETAILS_ABI, INTENT_SNAPSHOT_ABI], accepted.body.responseObject.encodedPaymentDetails as Hex);
  t.is(snapshot.timestampBuffer, 120_000n);
  const refused = await buyerVerify(configured, cashapp, preparePayment(configured, cashapp, early), intentFor(cashapp));
  t.like(refused, { status: 422, body: { errorCode: 'PAYMENT_BEFORE_INTENT' } });

  // The same buffer widens the window's other end: clocks disagree after the expiry as before the signal.
  const late = { timestampMs: EXPIRY_TIME * 1000 + 90_000 };
  t.is((await buyerVerify(configured, venmo, preparePayment(configured, venmo, late), intentFor(venmo))).status, 200);
  const refusedLate = await buyerVerify(configured, cashapp, preparePayment(configured, cashapp, late), intentFor(cashapp));
  t.like(refusedLate, { status: 422, body: { errorCode: 'PAYMENT_AFTER_INTENT' } });
});
