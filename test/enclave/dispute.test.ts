import test from 'ava';
import { keccak256, toBytes, verifyTypedData, type Hex } from 'viem';
import { DISPUTE_ATTESTATION_DOMAIN, DISPUTE_ATTESTATION_TYPES } from '../../enclave/attestation/dispute-attestation.js';
import { ChainRegistry } from '../../enclave/index.js';
import { DISPUTE_VERIFIER, PAYMENT_VERIFIER, TEST_CHAIN_ID, startTestEnclave, type TestEnclave } from '../support/enclave.js';

let enclave: TestEnclave;
test.before(async () => {
  enclave = await startTestEnclave({
    chains: new ChainRegistry({
      [TEST_CHAIN_ID]: { paymentVerifier: PAYMENT_VERIFIER, disputeVerifier: DISPUTE_VERIFIER },
      10: { paymentVerifier: PAYMENT_VERIFIER },
    }),
  });
});
test.after.always(async () => enclave?.stop());

const intentHash = keccak256(toBytes('disputed intent'));
const date = new Date('2026-11-23T11:30:00Z');
const cases = [
  { platform: 'venmo' as const, paymentId: '4139920210011', disputeId: 'VD-20261123-0042' },
  { platform: 'paypal' as const, paymentId: '8XK12345AB678901C', disputeId: 'PP-D-123456789' },
];

async function verifyDispute(platform: string, rawEmail: string, extra: Record<string, unknown> = {}) {
  return enclave.post(`/dispute/verify/${platform}/dispute_${platform}`, {
    encryptedSessionMaterial: await enclave.seal(
      { rawEmail },
      {
        purpose: 'dispute',
        platform,
        chainId: (extra.chainId as number | undefined) ?? TEST_CHAIN_ID,
        intentHash: (extra.intentHash as `0x${string}` | undefined) ?? intentHash,
      },
    ),
    params: {},
    chainId: TEST_CHAIN_ID,
    intentHash,
    ...extra,
  });
}

test('the dispute verifiers are listed', async (t) => {
  const { status, body } = await enclave.get('/dispute/supported');
  t.is(status, 200);
  t.deepEqual(body.responseObject.verifiers, [
    { platform: 'venmo', actionType: 'dispute_venmo', signingDomain: 'venmo.com' },
    { platform: 'paypal', actionType: 'dispute_paypal', signingDomain: 'paypal.com' },
  ]);
});

for (const c of cases) {
  test(`${c.platform}: a genuinely signed dispute e-mail is attested for the dispute verifier`, async (t) => {
    const rawEmail = await enclave.mailer.disputeEmail({ ...c, date });
    const { status, body } = await verifyDispute(c.platform, rawEmail);
    t.is(status, 200, JSON.stringify(body));
    const result = body.responseObject;
    t.like(result.dispute, {
      platform: c.platform,
      paymentId: c.paymentId,
      disputeId: c.disputeId,
      signingDomain: `${c.platform}.com`,
      emailDate: String(date.getTime() / 1000),
    });
    t.deepEqual(result.domain, { ...DISPUTE_ATTESTATION_DOMAIN, chainId: TEST_CHAIN_ID, verifyingContract: DISPUTE_VERIFIER });
    t.is(result.typedDataValue.dataHash, keccak256(result.data));
    t.is(result.typedDataValue.paymentId, keccak256(toBytes(c.paymentId)));
    t.true(
      await verifyTypedData({
        address: enclave.service.signer,
        domain: result.domain,
        types: DISPUTE_ATTESTATION_TYPES,
        primaryType: 'DisputeAttestation',
        message: result.typedDataValue,
        signature: result.signature as Hex,
      }),
    );
  });

  test(`${c.platform}: the same e-mail with one byte changed fails DKIM`, async (t) => {
    const rawEmail = await enclave.mailer.disputeEmail({ ...c, date });
    const at = rawEmail.indexOf(c.paymentId) + 2;
    const changed = rawEmail.slice(0, at) + (rawEmail[at] === '9' ? '8' : '9') + rawEmail.slice(at + 1);
    t.is(changed.length, rawEmail.length);
    t.like(await verifyDispute(c.platform, changed), { status: 422, body: { errorCode: 'DKIM_VERIFICATION_FAILED' } });

    const subjectAt = rawEmail.indexOf('Subject: ') + 9;
    const changedHeader = `${rawEmail.slice(0, subjectAt)}X${rawEmail.slice(subjectAt + 1)}`;
    t.like(await verifyDispute(c.platform, changedHeader), { status: 422, body: { errorCode: 'DKIM_VERIFICATION_FAILED' } });
  });
}

test('an e-mail signed by another domain than the platform is refused', async (t) => {
  const signedByPaypal = await enclave.mailer.disputeEmail({ ...cases[0]!, date }, 'paypal.com');
  t.like(await verifyDispute('venmo', signedByPaypal), { status: 422, body: { errorCode: 'DKIM_VERIFICATION_FAILED' } });
  const venmoMailAsPaypal = await enclave.mailer.disputeEmail({ ...cases[0]!, date });
  t.like(await verifyDispute('paypal', venmoMailAsPaypal), { status: 422, body: { errorCode: 'DKIM_VERIFICATION_FAILED' } });
});

test('dispute requests are checked: platform, action, params, chain', async (t) => {
  const rawEmail = await enclave.mailer.disputeEmail({ ...cases[0]!, date });
  t.like(await enclave.post('/dispute/verify/cashapp/dispute_cashapp', {}), { status: 400, body: { errorCode: 'INVALID_REQUEST' } });
  t.like(await verifyDispute('cashapp', rawEmail), { status: 404, body: { errorCode: 'UNSUPPORTED_PLATFORM' } });
  const wrongAction = await enclave.post('/dispute/verify/venmo/dispute_paypal', {
    encryptedSessionMaterial: await enclave.seal({ rawEmail }, { purpose: 'dispute', platform: 'venmo', chainId: TEST_CHAIN_ID, intentHash }),
    params: {},
    chainId: TEST_CHAIN_ID,
    intentHash,
  });
  t.like(wrongAction, { status: 400, body: { errorCode: 'UNSUPPORTED_ACTION' } });
  t.like(await verifyDispute('venmo', rawEmail, { params: { PAYMENT_ID: '1' } }), { status: 400, body: { errorCode: 'INVALID_REQUEST' } });
  t.like(await verifyDispute('venmo', rawEmail, { chainId: 10 }), { status: 400, body: { errorCode: 'DISPUTE_VERIFIER_UNKNOWN' } });
  t.like(await verifyDispute('venmo', rawEmail, { chainId: 1 }), { status: 400, body: { errorCode: 'UNSUPPORTED_CHAIN' } });
});

test('a second Date header, unsigned, cannot change what is attested', async (t) => {
  const rawEmail = await enclave.mailer.disputeEmail({ ...cases[0]!, date });
  const forged = `Date: Mon, 01 Jan 2035 00:00:00 GMT\r\n${rawEmail}`;
  const response = await verifyDispute('venmo', forged);
  t.like(response, { status: 422, body: { errorCode: 'DKIM_VERIFICATION_FAILED' } });
  t.regex(response.body.message, /more than one date header/);
});
