import test from 'ava';
import { credentials, Metadata, status as Status, type ServiceError } from '@grpc/grpc-js';
import { healthOf } from '../support/grpc-health.js';
import { EnclaveServiceClient, type VerifyPaymentRequest, type VerifyPaymentResponse } from '../../proto/gen/peer/enclave/v1/enclave.js';
import { ENCLAVE_SERVICE_NAME } from '../../enclave/index.js';
import { OWED_CENTS, PAYMENT_VERIFIER, PLATFORM_FIXTURES, TEST_CHAIN_ID, intentFor, preparePayment, startTestEnclave, type TestEnclave } from '../support/enclave.js';

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

function verifyPayment(request: VerifyPaymentRequest): Promise<VerifyPaymentResponse> {
  return new Promise((resolve, reject) => client.verifyPayment(request, (error, response) => (error ? reject(error) : resolve(response))));
}

async function request(payment: Parameters<typeof preparePayment>[2] = {}): Promise<VerifyPaymentRequest> {
  const prepared = preparePayment(enclave, cashapp, payment);
  const intent = intentFor(cashapp);
  return {
    platform: 'cashapp',
    actionType: 'transfer_cashapp',
    encryptedSessionMaterial: await enclave.seal(prepared.material),
    params: prepared.params,
    intent: {
      intentHash: intent.intentHash,
      amount: intent.amount,
      fiatCurrency: intent.fiatCurrency,
      payeeDetails: intent.payeeDetails,
      conversionRate: intent.conversionRate,
      signalTimestamp: BigInt(intent.signalTimestamp),
      timestampBufferMs: BigInt(intent.timestampBuffer),
    },
    chainId: BigInt(TEST_CHAIN_ID),
  };
}

test('VerifyPayment attests over gRPC what the HTTP surface attests', async (t) => {
  const sent = await request();
  const response = await verifyPayment(sent);
  t.is(response.signer, enclave.service.signer);
  t.is(response.intentHash, sent.intent!.intentHash);
  t.is(response.releaseAmount, sent.intent!.amount);
  t.is(response.source, 'buyer-tee');
  t.is(response.chainId, BigInt(TEST_CHAIN_ID));
  t.is(response.verifyingContract, PAYMENT_VERIFIER);
  t.is(response.paymentDetails?.amount, OWED_CENTS.toString());
  t.regex(response.signature, /^0x[0-9a-f]{130}$/);
});

test('refusals arrive as gRPC statuses with the service code in the error-code trailer', async (t) => {
  const short = await t.throwsAsync<ServiceError>(verifyPayment(await request({ amount: OWED_CENTS - 1n })));
  t.is(short?.code, Status.FAILED_PRECONDITION);
  t.deepEqual(short?.metadata.get('error-code'), ['AMOUNT_TOO_LOW']);

  const noIntent = await t.throwsAsync<ServiceError>(verifyPayment({ ...(await request()), intent: undefined }));
  t.is(noIntent?.code, Status.INVALID_ARGUMENT);
  t.deepEqual(noIntent?.metadata.get('error-code'), ['INVALID_REQUEST']);

  const replayed = await request();
  await verifyPayment(replayed);
  const other = await t.throwsAsync<ServiceError>(verifyPayment({ ...replayed, intent: { ...replayed.intent!, intentHash: `0x${'ab'.repeat(32)}` } }));
  t.is(other?.code, Status.ALREADY_EXISTS);
});

test('the attestation document, the dispute verifiers and health are served', async (t) => {
  const document = await new Promise<{ documentJson: string }>((resolve, reject) =>
    client.getAttestationDocument({}, new Metadata(), (error, response) => (error ? reject(error) : resolve(response))),
  );
  t.deepEqual(JSON.parse(document.documentJson), enclave.service.attestationDocument());
  const disputes = await new Promise<{ verifiers: { platform: string }[] }>((resolve, reject) =>
    client.listDisputeVerifiers({}, (error, response) => (error ? reject(error) : resolve(response))),
  );
  t.deepEqual(disputes.verifiers.map((verifier) => verifier.platform), ['venmo', 'paypal']);

  t.is(await healthOf(enclave.server.grpcAddress, ENCLAVE_SERVICE_NAME), 'SERVING');
});
