import test from 'ava';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { providerProofDigest } from '../../enclave/index.js';
import { renderPayment, type SimPayment } from '../../enclave/simulator/index.js';
import {
  OWED_CENTS,
  PLATFORM_FIXTURES,
  SIGNAL_TIMESTAMP,
  TEST_CHAIN_ID,
  TEST_NOW,
  intentFor,
  proofAttestor,
  startTestEnclave,
  type TestEnclave,
} from '../support/enclave.js';

let enclave: TestEnclave;
test.before(async () => {
  enclave = await startTestEnclave();
});
test.after.always(async () => enclave?.stop());

const paypal = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'paypal')!;

function paypalPayment(overrides: Partial<SimPayment> = {}): SimPayment {
  return {
    paymentId: paypal.paymentId(),
    amount: OWED_CENTS,
    currency: 'USD',
    payee: paypal.payeeRaw,
    timestampMs: SIGNAL_TIMESTAMP * 1000 + 60_000,
    status: 'completed',
    ...overrides,
  };
}

async function proofRequest(
  payment: SimPayment,
  signer = proofAttestor,
  tamper?: (body: string) => string,
  offeredFor?: Record<string, unknown>,
  timestamp = SIGNAL_TIMESTAMP + 120,
  rawBody?: string,
) {
  const responseBody = rawBody ?? JSON.stringify(renderPayment('paypal', payment, { id: 'buyer-1', username: 'buyer' }));
  const intent = intentFor(paypal);
  const signature = await signer.signMessage({ message: { raw: providerProofDigest('paypal', intent.intentHash, responseBody, timestamp) } });
  return enclave.post('/verify/paypal/transfer_paypal', {
    proof: { responseBody: tamper ? tamper(responseBody) : responseBody, timestamp, signature },
    params: { PAYMENT_ID: payment.paymentId },
    intent: offeredFor ?? intent,
    chainId: TEST_CHAIN_ID,
  });
}

test('a provider proof vouched for by a trusted attestor is verified like a buyer-TEE read', async (t) => {
  const { status, body } = await proofRequest(paypalPayment());
  t.is(status, 200, JSON.stringify(body));
  t.is(body.responseObject.metadata.source, 'buyer-proof');
  t.is(body.responseObject.signer, enclave.service.signer);
});

test('the verifier rules hold for proofs too', async (t) => {
  t.like(await proofRequest(paypalPayment({ amount: OWED_CENTS - 1n })), { status: 422, body: { errorCode: 'AMOUNT_TOO_LOW' } });
  // A second intent with a proof of its own for the same payment: the payment id is spent.
  const payment = paypalPayment();
  t.is((await proofRequest(payment)).status, 200);
  t.like(await proofRequest(payment), { status: 409, body: { errorCode: 'PAYMENT_ID_ALREADY_USED' } });
});

test('a proof from an unknown attestor, or with its response altered, is not trusted', async (t) => {
  const stranger = privateKeyToAccount(generatePrivateKey());
  t.like(await proofRequest(paypalPayment(), stranger), { status: 422, body: { errorCode: 'PROOF_NOT_TRUSTED' } });
  t.like(await proofRequest(paypalPayment(), proofAttestor, (body) => body.replace('"-25.35"', '"-95.35"')), {
    status: 422,
    body: { errorCode: 'PROOF_NOT_TRUSTED' },
  });
});

test('a proof made for one intent cannot be offered for another', async (t) => {
  t.like(await proofRequest(paypalPayment(), proofAttestor, undefined, intentFor(paypal)), { status: 422, body: { errorCode: 'PROOF_NOT_TRUSTED' } });
});

test('a proof fetched after the intent expired still proves a payment made before: the window bounds the payment, not the proof', async (t) => {
  // The intent expired at 11:30; the proof is fetched at 11:59, within the hour a proof stays fresh.
  const intent = intentFor(paypal, { expiryTime: SIGNAL_TIMESTAMP + 1_800 });
  const fetched = Math.floor(TEST_NOW / 1000) - 60;
  const prove = async (payment: SimPayment) => {
    const responseBody = JSON.stringify(renderPayment('paypal', payment, { id: 'buyer-1', username: 'buyer' }));
    const signature = await proofAttestor.signMessage({ message: { raw: providerProofDigest('paypal', intent.intentHash, responseBody, fetched) } });
    return enclave.post('/verify/paypal/transfer_paypal', {
      proof: { responseBody, timestamp: fetched, signature },
      params: { PAYMENT_ID: payment.paymentId },
      intent,
      chainId: TEST_CHAIN_ID,
    });
  };
  const inTime = await prove(paypalPayment());
  t.is(inTime.status, 200, JSON.stringify(inTime.body));
  t.like(await prove(paypalPayment({ timestampMs: (SIGNAL_TIMESTAMP + 1_800) * 1000 + 61_000 })), { status: 422, body: { errorCode: 'PAYMENT_AFTER_INTENT' } });
});

test('a proof fetched before the intent, too long ago, or in the future is stale', async (t) => {
  const now = Math.floor(TEST_NOW / 1000);
  for (const timestamp of [SIGNAL_TIMESTAMP - 600, now - 3_601, now + 301]) {
    t.like(
      await proofRequest(paypalPayment(), proofAttestor, undefined, undefined, timestamp),
      { status: 422, body: { errorCode: 'PROOF_STALE' } },
      String(timestamp),
    );
  }
});

test("a vouched-for response body that is not JSON, or not the platform's shape, is the caller's error: 422 PROOF_RESPONSE_INVALID, never a 5xx", async (t) => {
  for (const body of ['<html>not json</html>', JSON.stringify({ foo: 1 })]) {
    const response = await proofRequest(paypalPayment(), proofAttestor, undefined, undefined, SIGNAL_TIMESTAMP + 120, body);
    t.is(response.status, 422, body);
    t.like(response.body, { success: false, errorCode: 'PROOF_RESPONSE_INVALID', responseObject: null });
  }
});
