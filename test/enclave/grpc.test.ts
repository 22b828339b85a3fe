import test, { type ExecutionContext } from 'ava';
import { credentials, Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import { keccak256, toBytes, verifyTypedData, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { healthOf } from '../support/grpc-health.js';
import {
  EnclaveServiceClient,
  type GetAttestationDocumentResponse,
  type RegisterIdentityRequest,
  type RegisterIdentityResponse,
  type ResolveSellerPaymentRequest,
  type ResolveSellerPaymentResponse,
  type VerifyDisputeRequest,
  type VerifyDisputeResponse,
  type VerifyPaymentProofRequest,
  type VerifyPaymentProofResponse,
  type VerifyPaymentRequest,
  type VerifyPaymentResponse,
} from '../../proto/gen/peer/enclave/v1/enclave.js';
import { ENCLAVE_SERVICE_NAME, checkAttestationDocument, paymentReference, providerProofDigest } from '../../enclave/index.js';
import { IDENTITY_ATTESTATION_TYPES } from '../../enclave/attestation/identity-attestation.js';
import { renderPayment, type SimPayment } from '../../enclave/simulator/index.js';
import {
  EXPIRY_TIME,
  OWED_CENTS,
  PAYMENT_VERIFIER,
  PLATFORM_FIXTURES,
  SIGNAL_TIMESTAMP,
  TEST_CHAIN_ID,
  intentFor,
  preparePayment,
  proofAttestor,
  startTestEnclave,
  type TestEnclave,
  paymentUse,
  grpcIntent,
} from '../support/enclave.js';
import { keepCredential, makerSession, receivedPayment, resolveRequest } from '../support/seller.js';

let enclave: TestEnclave;
let client: EnclaveServiceClient;
test.before(async () => {
  enclave = await startTestEnclave();
  client = new EnclaveServiceClient(enclave.server.grpcAddress, credentials.createInsecure());
});
test.after.always(async () => {
  client?.close();
  await enclave?.stop();
});

const cashapp = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'cashapp')!;
const paypal = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'paypal')!;

/** One unary call as a promise. */
function rpc<Res>(invoke: (callback: (error: ServiceError | null, response: Res) => void) => unknown): Promise<Res> {
  return new Promise((resolve, reject) => invoke((error, response) => (error ? reject(error) : resolve(response))));
}

const verifyPayment = (request: VerifyPaymentRequest) => rpc<VerifyPaymentResponse>((callback) => client.verifyPayment(request, callback));
const verifyPaymentProof = (request: VerifyPaymentProofRequest) => rpc<VerifyPaymentProofResponse>((callback) => client.verifyPaymentProof(request, callback));

/** A refused call: its status and the service's code from the error-code trailer. */
async function refusal(t: ExecutionContext, call: Promise<unknown>) {
  const error = await t.throwsAsync<ServiceError>(call);
  return { code: error?.code, errorCode: error?.metadata.get('error-code') };
}

/** A payment's answer as HTTP's responseObject: what gRPC leaves out is the verifier's fixed domain name and the request's platform and action. */
function paymentAsHttp(response: VerifyPaymentResponse | VerifyPaymentProofResponse | ResolveSellerPaymentResponse, platform: string, actionType: string) {
  return {
    signer: response.signer,
    signature: response.signature,
    domain: { name: 'UnifiedPaymentVerifier', version: '1', chainId: Number(response.chainId), verifyingContract: response.verifyingContract },
    typedDataValue: { intentHash: response.intentHash, releaseAmount: response.releaseAmount, dataHash: response.dataHash },
    encodedPaymentDetails: response.data,
    paymentDetails: { ...response.paymentDetails, timestamp: String(response.paymentDetails?.timestamp) },
    paymentProof: response.paymentProof,
    metadata: { source: response.source, platform, actionType },
  };
}

/** One Cash App payment, as the gRPC request and the HTTP body of the same request. */
async function paymentRequest(payment: Parameters<typeof preparePayment>[2] = {}) {
  const prepared = preparePayment(enclave, cashapp, payment);
  const intent = intentFor(cashapp);
  const encryptedSessionMaterial = await enclave.seal(prepared.material, paymentUse(cashapp, intent));
  const grpc: VerifyPaymentRequest = {
    platform: 'cashapp',
    actionType: 'transfer_cashapp',
    encryptedSessionMaterial,
    params: prepared.params,
    intent: grpcIntent(intent),
    chainId: BigInt(TEST_CHAIN_ID),
  };
  return { grpc, http: { encryptedSessionMaterial, params: prepared.params, intent, chainId: TEST_CHAIN_ID }, material: prepared.material };
}

const request = async (payment: Parameters<typeof preparePayment>[2] = {}) => (await paymentRequest(payment)).grpc;

test('VerifyPayment attests over gRPC what the HTTP surface attests', async (t) => {
  const sent = await paymentRequest();
  const response = await verifyPayment(sent.grpc);
  t.is(response.signer, enclave.service.signer);
  t.is(response.intentHash, sent.grpc.intent!.intentHash);
  t.is(response.releaseAmount, sent.grpc.intent!.amount);
  t.is(response.source, 'buyer-tee');
  t.is(response.chainId, BigInt(TEST_CHAIN_ID));
  t.is(response.verifyingContract, PAYMENT_VERIFIER);
  t.is(response.paymentDetails?.amount, OWED_CENTS.toString());
  t.regex(response.signature, /^0x[0-9a-f]{130}$/);
  t.regex(response.paymentProof, /^0x[0-9a-f]+$/);

  // The same request again over HTTP: a retry for the same intent signs the same data again.
  const http = await enclave.post('/buyer/verify/cashapp/transfer_cashapp', sent.http);
  t.is(http.status, 200, JSON.stringify(http.body));
  t.deepEqual(paymentAsHttp(response, 'cashapp', 'transfer_cashapp'), http.body.responseObject);
});

test('refusals arrive as gRPC statuses with the service code in the error-code trailer', async (t) => {
  t.deepEqual(await refusal(t, verifyPayment(await request({ amount: OWED_CENTS - 1n }))), { code: Status.FAILED_PRECONDITION, errorCode: ['AMOUNT_TOO_LOW'] });
  t.deepEqual(await refusal(t, verifyPayment({ ...(await request()), intent: undefined })), { code: Status.INVALID_ARGUMENT, errorCode: ['INVALID_REQUEST'] });

  const first = await paymentRequest();
  const replayed = first.grpc;
  await verifyPayment(replayed);
  // The same session, sealed again for another intent: the payment id is what refuses it.
  const otherIntent = `0x${'ab'.repeat(32)}` as const;
  const resealed = await enclave.seal(first.material, { purpose: 'payment', platform: 'cashapp', chainId: TEST_CHAIN_ID, intentHash: otherIntent });
  const other = { ...replayed, encryptedSessionMaterial: resealed, intent: { ...replayed.intent!, intentHash: otherIntent } };
  t.deepEqual(await refusal(t, verifyPayment(other)), { code: Status.ALREADY_EXISTS, errorCode: ['PAYMENT_ID_ALREADY_USED'] });

  // A platform that answers, in a shape this client cannot read, answers the same to a retry: not UNAVAILABLE.
  const unreadable = await request();
  enclave.simulator.setOutage('cashapp', 200);
  t.teardown(() => enclave.simulator.setOutage('cashapp', null));
  t.deepEqual(await refusal(t, verifyPayment(unreadable)), { code: Status.FAILED_PRECONDITION, errorCode: ['PLATFORM_RESPONSE_INVALID'] });
  // An outage proper is the one retryable answer.
  enclave.simulator.setOutage('cashapp', 503);
  t.deepEqual(await refusal(t, verifyPayment(unreadable)), { code: Status.UNAVAILABLE, errorCode: ['PLATFORM_UNAVAILABLE'] });
  enclave.simulator.setOutage('cashapp', null);
});

test('an intent whose expiry is not after its signal (or unset: proto3 sends 0) is INVALID_ARGUMENT; a payment after the expiry FAILED_PRECONDITION', async (t) => {
  const sent = await request();
  const intent = sent.intent!;
  for (const expiryTime of [intent.signalTimestamp, 0n]) {
    t.deepEqual(
      await refusal(t, verifyPayment({ ...sent, intent: { ...intent, expiryTime } })),
      { code: Status.INVALID_ARGUMENT, errorCode: ['INVALID_REQUEST'] },
      String(expiryTime),
    );
  }
  t.deepEqual(await refusal(t, verifyPayment(await request({ timestampMs: EXPIRY_TIME * 1000 + 61_000 }))), {
    code: Status.FAILED_PRECONDITION,
    errorCode: ['PAYMENT_AFTER_INTENT'],
  });
});

const resolveSellerPayment = (request: ResolveSellerPaymentRequest) =>
  rpc<ResolveSellerPaymentResponse>((callback) => client.resolveSellerPayment(request, callback));

test("ResolveSellerPayment attests over gRPC what POST /seller/verify attests, naming the maker's Wise profile itself", async (t) => {
  const session = makerSession(enclave, { platform: 'wise' });
  await keepCredential(enclave, session);
  const intent = intentFor(session.fixture);
  const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
  const sent = resolveRequest(session, paid.paymentId, intent);
  const response = await resolveSellerPayment(sent);
  t.like(response, { signer: enclave.service.signer, intentHash: intent.intentHash, releaseAmount: intent.amount, source: 'seller-tee' });
  t.is(response.paymentDetails?.timestamp, BigInt(paid.timestampMs));

  // The same request again over HTTP: for the same intent the same data is signed again.
  const http = await enclave.post('/seller/verify/wise/transfer_wise', { params: sent.params, intent, chainId: TEST_CHAIN_ID });
  t.is(http.status, 200, JSON.stringify(http.body));
  t.deepEqual(paymentAsHttp(response, 'wise', 'transfer_wise'), http.body.responseObject);
});

test('ResolveSellerPayment refusals arrive as gRPC statuses with the service code', async (t) => {
  // Venmo: the test above takes Cash App down while it runs.
  const session = makerSession(enclave, { platform: 'venmo' });
  await keepCredential(enclave, session);
  const intent = intentFor(session.fixture);
  const unnamed = receivedPayment(enclave, session);
  t.deepEqual(await refusal(t, resolveSellerPayment(resolveRequest(session, unnamed.paymentId, intent))), {
    code: Status.FAILED_PRECONDITION,
    errorCode: ['MEMO_MISMATCH'],
  });
  t.deepEqual(await refusal(t, resolveSellerPayment(resolveRequest(session, session.fixture.paymentId(), intent))), {
    code: Status.FAILED_PRECONDITION,
    errorCode: ['PAYMENT_NOT_FOUND'],
  });
  const stranger = { ...intent, payeeDetails: keccak256(toBytes(session.fixture.otherPayeeRaw)) };
  t.deepEqual(await refusal(t, resolveSellerPayment(resolveRequest(session, unnamed.paymentId, stranger))), {
    code: Status.FAILED_PRECONDITION,
    errorCode: ['SELLER_CREDENTIAL_UNAVAILABLE'],
  });
  t.deepEqual(
    await refusal(t, resolveSellerPayment({ ...resolveRequest(session, unnamed.paymentId, intent), platform: 'paypal', actionType: 'transfer_paypal' })),
    {
      code: Status.NOT_FOUND,
      errorCode: ['UNSUPPORTED_PLATFORM'],
    },
  );
  t.deepEqual(await refusal(t, resolveSellerPayment({ ...resolveRequest(session, unnamed.paymentId, intent), intent: undefined })), {
    code: Status.INVALID_ARGUMENT,
    errorCode: ['INVALID_REQUEST'],
  });
  const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
  await resolveSellerPayment(resolveRequest(session, paid.paymentId, intent));
  const other = intentFor(session.fixture);
  const both = receivedPayment(enclave, session, { note: `${paymentReference(intent.intentHash)} ${paymentReference(other.intentHash)}` });
  await resolveSellerPayment(resolveRequest(session, both.paymentId, other));
  t.deepEqual(await refusal(t, resolveSellerPayment(resolveRequest(session, both.paymentId, intent))), {
    code: Status.ALREADY_EXISTS,
    errorCode: ['PAYMENT_ID_ALREADY_USED'],
  });
});

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

/** A provider proof of one PayPal payment, as the gRPC request and the HTTP body of POST /verify/paypal/transfer_paypal. */
async function proofRequest(payment = paypalPayment(), signer = proofAttestor, rawBody?: string) {
  const responseBody = rawBody ?? JSON.stringify(renderPayment('paypal', payment, { id: 'buyer-1', username: 'buyer' }));
  const intent = intentFor(paypal);
  const timestamp = SIGNAL_TIMESTAMP + 120;
  const signature = await signer.signMessage({ message: { raw: providerProofDigest('paypal', intent.intentHash, responseBody, timestamp) } });
  const params = { PAYMENT_ID: payment.paymentId };
  const grpc: VerifyPaymentProofRequest = {
    platform: 'paypal',
    actionType: 'transfer_paypal',
    proof: { responseBody, timestamp: BigInt(timestamp), signature },
    params,
    intent: grpcIntent(intent),
    chainId: BigInt(TEST_CHAIN_ID),
  };
  return { grpc, http: { proof: { responseBody, timestamp, signature }, params, intent, chainId: TEST_CHAIN_ID } };
}

test('VerifyPaymentProof attests a provider proof as POST /verify/{platform}/{actionType} does', async (t) => {
  const sent = await proofRequest();
  const response = await verifyPaymentProof(sent.grpc);
  t.is(response.source, 'buyer-proof');
  t.is(response.signer, enclave.service.signer);
  t.is(response.intentHash, sent.http.intent.intentHash);

  const http = await enclave.post('/verify/paypal/transfer_paypal', sent.http);
  t.is(http.status, 200, JSON.stringify(http.body));
  t.deepEqual(paymentAsHttp(response, 'paypal', 'transfer_paypal'), http.body.responseObject);
});

test('VerifyPaymentProof refusals keep their codes', async (t) => {
  const stranger = privateKeyToAccount(generatePrivateKey());
  t.deepEqual(await refusal(t, verifyPaymentProof((await proofRequest(paypalPayment(), stranger)).grpc)), {
    code: Status.FAILED_PRECONDITION,
    errorCode: ['PROOF_NOT_TRUSTED'],
  });
  const { grpc } = await proofRequest();
  t.deepEqual(await refusal(t, verifyPaymentProof({ ...grpc, proof: undefined })), { code: Status.INVALID_ARGUMENT, errorCode: ['INVALID_REQUEST'] });
  // A timestamp past the safe range is refused, not rounded to one that might pass.
  t.deepEqual(await refusal(t, verifyPaymentProof({ ...grpc, proof: { ...grpc.proof!, timestamp: 2n ** 63n } })), {
    code: Status.INVALID_ARGUMENT,
    errorCode: ['INVALID_REQUEST'],
  });
  t.deepEqual(await refusal(t, verifyPaymentProof({ ...grpc, verifyingContract: `0x${'11'.repeat(20)}` })), {
    code: Status.INVALID_ARGUMENT,
    errorCode: ['VERIFYING_CONTRACT_MISMATCH'],
  });
  t.deepEqual(await refusal(t, verifyPaymentProof({ ...grpc, actionType: 'transfer_venmo' })), {
    code: Status.INVALID_ARGUMENT,
    errorCode: ['UNSUPPORTED_ACTION'],
  });
  // A response body the caller vouched for and this client cannot read is the caller's error, not an outage to retry.
  for (const body of ['<html>not json</html>', JSON.stringify({ foo: 1 })]) {
    t.deepEqual(await refusal(t, verifyPaymentProof((await proofRequest(paypalPayment(), proofAttestor, body)).grpc)), {
      code: Status.FAILED_PRECONDITION,
      errorCode: ['PROOF_RESPONSE_INVALID'],
    });
  }
});

test('RegisterIdentity answers the identity attestation POST /identity does, with its EIP-712 domain', async (t) => {
  const account = { id: '3141592653', username: 'maker-mary' };
  const caller = privateKeyToAccount(generatePrivateKey()).address;
  const sent: RegisterIdentityRequest = {
    platform: 'venmo',
    actionType: 'register_venmo',
    callerAddress: caller.toLowerCase(),
    encryptedSessionMaterial: await enclave.seal(enclave.simulator.openSession('venmo', account), {
      purpose: 'identity',
      platform: 'venmo',
      callerAddress: caller,
    }),
    params: { SENDER_ID: account.id },
    chainId: BigInt(TEST_CHAIN_ID),
  };
  const { domain, ...response } = await rpc<RegisterIdentityResponse>((callback) => client.registerIdentity(sent, callback));
  const http = await enclave.post('/identity', { ...sent, chainId: TEST_CHAIN_ID });
  t.is(http.status, 200, JSON.stringify(http.body));
  const { domain: httpDomain, ...httpRest } = http.body.responseObject;
  t.deepEqual(response, httpRest);
  t.deepEqual(httpDomain, { name: 'PeerIdentityAttestation', version: '1', chainId: TEST_CHAIN_ID, verifyingContract: PAYMENT_VERIFIER });
  t.like(response.identity, { platform: 'venmo', payeeId: account.id, payeeIdHash: keccak256(toBytes(account.id)) });
  t.is(response.typedDataValue?.callerAddress, caller);

  t.deepEqual(domain, { name: 'PeerIdentityAttestation', version: '1', chainId: BigInt(TEST_CHAIN_ID), verifyingContract: PAYMENT_VERIFIER });
  const value = response.typedDataValue!;
  t.true(
    await verifyTypedData({
      address: response.signer as Hex,
      domain: { name: domain!.name, version: domain!.version, chainId: Number(domain!.chainId), verifyingContract: domain!.verifyingContract as Hex },
      types: IDENTITY_ATTESTATION_TYPES,
      primaryType: 'IdentityAttestation',
      message: {
        method: value.method as Hex,
        actionType: value.actionType as Hex,
        callerAddress: value.callerAddress as Hex,
        payeeIdHash: value.payeeIdHash as Hex,
        dataHash: value.dataHash as Hex,
        issuedAt: BigInt(value.issuedAt),
        validUntil: BigInt(value.validUntil),
      },
      signature: response.signature as Hex,
    }),
  );

  const otherAccount = {
    ...sent,
    encryptedSessionMaterial: await enclave.seal(enclave.simulator.openSession('venmo', { id: '1111', username: 'someone' }), {
      purpose: 'identity',
      platform: 'venmo',
      callerAddress: caller,
    }),
  };
  t.deepEqual(
    await refusal(
      t,
      rpc((callback) => client.registerIdentity(otherAccount, callback)),
    ),
    { code: Status.FAILED_PRECONDITION, errorCode: ['IDENTITY_NOT_VERIFIED'] },
  );
});

test('VerifyDispute answers the dispute attestation POST /dispute/verify does', async (t) => {
  const rawEmail = await enclave.mailer.disputeEmail({
    platform: 'venmo',
    paymentId: '4139920210011',
    disputeId: 'VD-20261123-0042',
    date: new Date('2026-11-23T11:30:00Z'),
  });
  const intentHash = keccak256(toBytes('disputed over gRPC'));
  const sent: VerifyDisputeRequest = {
    platform: 'venmo',
    actionType: 'dispute_venmo',
    encryptedSessionMaterial: await enclave.seal({ rawEmail }, { purpose: 'dispute', platform: 'venmo', chainId: TEST_CHAIN_ID, intentHash }),
    chainId: BigInt(TEST_CHAIN_ID),
    intentHash,
  };
  const verifyDispute = (request: VerifyDisputeRequest) => rpc<VerifyDisputeResponse>((callback) => client.verifyDispute(request, callback));
  const response = await verifyDispute(sent);
  const http = await enclave.post('/dispute/verify/venmo/dispute_venmo', {
    encryptedSessionMaterial: sent.encryptedSessionMaterial,
    params: {},
    chainId: TEST_CHAIN_ID,
    intentHash,
  });
  t.is(http.status, 200, JSON.stringify(http.body));
  const { domain, source, ...rest } = response;
  t.deepEqual({ ...rest, domain: { ...domain, chainId: Number(domain?.chainId) }, metadata: { source } }, http.body.responseObject);
  t.is(response.typedDataValue?.dataHash, keccak256(response.data as Hex));
  t.is(source, 'dispute-email');

  const at = rawEmail.indexOf('4139920210011') + 2;
  const altered = {
    ...sent,
    encryptedSessionMaterial: await enclave.seal(
      { rawEmail: `${rawEmail.slice(0, at)}8${rawEmail.slice(at + 1)}` },
      { purpose: 'dispute', platform: 'venmo', chainId: TEST_CHAIN_ID, intentHash },
    ),
  };
  t.deepEqual(await refusal(t, verifyDispute(altered)), { code: Status.FAILED_PRECONDITION, errorCode: ['DKIM_VERIFICATION_FAILED'] });
  t.deepEqual(await refusal(t, verifyDispute({ ...sent, platform: 'cashapp', actionType: 'dispute_cashapp' })), {
    code: Status.NOT_FOUND,
    errorCode: ['UNSUPPORTED_PLATFORM'],
  });
});

test('the attestation document, the dispute verifiers and health are served', async (t) => {
  const { document } = await rpc<GetAttestationDocumentResponse>((callback) => client.getAttestationDocument({ nonce: '' }, new Metadata(), callback));
  const { nonce: none, evidence, ...wire } = document!;
  t.is(none, '', 'asked without a nonce, the document names none');
  t.is(evidence?.kind, 'software');
  t.is(evidence?.document.length, 0);
  const unsigned = { ...wire, evidence: { kind: 'software' } };
  t.deepEqual(unsigned, (await enclave.get('/attestation')).body.responseObject);
  t.deepEqual(unsigned, enclave.service.attestationDocument());

  // Asked with a nonce, the document is signed for it, over gRPC as over HTTP, and a client's check holds it to it.
  const nonce = `0x${'5a'.repeat(32)}` as const;
  const fresh = await rpc<GetAttestationDocumentResponse>((callback) => client.getAttestationDocument({ nonce }, new Metadata(), callback));
  t.is(fresh.document!.nonce, nonce);
  const trusted = { measurement: fresh.document!.measurement, signer: enclave.service.signer };
  const overHttp = (await enclave.get(`/attestation?nonce=${nonce}`)).body.responseObject;
  await t.notThrowsAsync(checkAttestationDocument(overHttp, trusted, nonce));
  await t.throwsAsync(checkAttestationDocument(overHttp, trusted, `0x${'5b'.repeat(32)}`), { message: /not signed for this request/ });
  t.deepEqual(
    await refusal(
      t,
      rpc((callback) => client.getAttestationDocument({ nonce: 'short' }, new Metadata(), callback)),
    ),
    { code: Status.INVALID_ARGUMENT, errorCode: ['INVALID_REQUEST'] },
  );
  const disputes = await rpc<{ verifiers: { platform: string }[] }>((callback) => client.listDisputeVerifiers({}, callback));
  t.deepEqual(
    disputes.verifiers.map((verifier) => verifier.platform),
    ['venmo', 'paypal'],
  );

  t.is(await healthOf(enclave.server.grpcAddress, ENCLAVE_SERVICE_NAME), 'SERVING');
});
