/**
 * The node's client of the attestation service over gRPC: trusted only after the
 * document's check (with a fresh nonce), checked again when answers come from another
 * signer, and a refusal is answered once, never retried.
 */
import test from 'ava';
import type { Address } from 'viem';
import { EnclaveClient } from '../../../actors/adapters/enclave/index.js';
import { PrometheusMetrics } from '../../../actors/metrics/index.js';
import { parseExposition, sampleValue } from '../../support/prometheus-text.js';
import { documentCheck } from '../../../deploy/enclave-client.js';
import type { VerifyPaymentRequest } from '../../../proto/gen/peer/enclave/v1/enclave.js';
import {
  OWED_CENTS,
  PLATFORM_FIXTURES,
  TEST_CHAIN_ID,
  grpcIntent,
  intentFor,
  paymentUse,
  preparePayment,
  startTestEnclave,
  type TestEnclave,
} from '../../support/enclave.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { keepCredential, makerSession, receivedPayment, resolveRequest } from '../../support/seller.js';
import { paymentReference } from '../../../machines/payment/payment-reference.js';
import { SELLER_RELEASE_RAILS } from '../../../machines/rails.js';
import { FixtureNitroModule, makeNitroPki, pcrsOf } from '../../support/nitro.js';
import { NitroAttestationProducer, checkAttestationDocument } from '../../../enclave/index.js';

const cashapp = PLATFORM_FIXTURES.find((fixture) => fixture.platform === 'cashapp')!;

async function paymentRequest(enclave: TestEnclave, payment: Parameters<typeof preparePayment>[2] = {}): Promise<VerifyPaymentRequest> {
  const prepared = preparePayment(enclave, cashapp, payment);
  const intent = intentFor(cashapp);
  return {
    platform: 'cashapp',
    actionType: 'transfer_cashapp',
    encryptedSessionMaterial: await enclave.seal(prepared.material, paymentUse(cashapp, intent)),
    params: prepared.params,
    intent: grpcIntent(intent),
    chainId: BigInt(TEST_CHAIN_ID),
  };
}

const checkFor = (enclave: TestEnclave, signers: Address[] = [enclave.service.signer]) =>
  documentCheck(enclave.service.attestationDocument().measurement, signers);

test('the client checks the document before its first call, and then attests through the service', async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const client = await EnclaveClient.connect(enclave.server.grpcAddress, checkFor(enclave));
  t.teardown(() => client.close());
  t.is(client.signer, enclave.service.signer);
  const response = await client.verifyPayment(await paymentRequest(enclave));
  t.is(response.signer, enclave.service.signer);
  t.is(response.releaseAmount, intentFor(cashapp).amount);
  t.regex(response.paymentProof, /^0x[0-9a-f]+$/);
});

test("resolveSellerPayment attests, on each seller-release rail, a payment the maker's kept session received, and refuses once what it cannot", async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const client = await EnclaveClient.connect(enclave.server.grpcAddress, checkFor(enclave));
  t.teardown(() => client.close());
  for (const platform of SELLER_RELEASE_RAILS) {
    const session = makerSession(enclave, { platform });
    await keepCredential(enclave, session);
    const intent = intentFor(session.fixture);
    const paid = receivedPayment(enclave, session, { note: paymentReference(intent.intentHash) });
    const response = await client.resolveSellerPayment(resolveRequest(session, paid.paymentId, intent));
    t.like(response, { signer: enclave.service.signer, source: 'seller-tee', intentHash: intent.intentHash, releaseAmount: intent.amount }, platform);
    t.regex(response.paymentProof, /^0x[0-9a-f]+$/);

    const before = enclave.simulator.requests.get(platform) ?? 0;
    const refused = await t.throwsAsync(client.resolveSellerPayment(resolveRequest(session, session.fixture.paymentId(), intent)));
    t.is((refused as { metadata?: { get(key: string): unknown[] } }).metadata?.get('error-code')[0], 'PAYMENT_NOT_FOUND', platform);
    // The account read and the payment read, once: a refusal is not retried.
    t.is(enclave.simulator.requests.get(platform), before + 2, platform);
  }
});

test('a service that runs other code, or signs as a signer nobody registered, is refused at connect', async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  await t.throwsAsync(EnclaveClient.connect(enclave.server.grpcAddress, documentCheck(`sha256:${'0'.repeat(64)}`, [enclave.service.signer])), {
    message: /not the published/,
  });
  await t.throwsAsync(
    EnclaveClient.connect(enclave.server.grpcAddress, documentCheck(enclave.service.attestationDocument().measurement, [`0x${'12'.repeat(20)}`])),
    {
      message: /not a trusted witness/,
    },
  );
});

test('a refusal is answered once: the platform is asked once, not again by a retry', async (t) => {
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const client = await EnclaveClient.connect(enclave.server.grpcAddress, checkFor(enclave));
  t.teardown(() => client.close());
  const before = enclave.simulator.requests.get('cashapp') ?? 0;
  const refused = await t.throwsAsync(client.verifyPayment(await paymentRequest(enclave, { amount: OWED_CENTS - 1n })));
  t.is((refused as { metadata?: { get(key: string): unknown[] } }).metadata?.get('error-code')[0], 'AMOUNT_TOO_LOW');
  t.is(enclave.simulator.requests.get('cashapp'), before + 1);
});

test("an answer from another signer (the service replaced behind its address) is used only once that signer's document passes", async (t) => {
  const first = await startTestEnclave();
  const second = await startTestEnclave();
  const proxy = await TcpProxy.start(Number(first.server.grpcAddress.split(':')[1]));
  t.teardown(async () => {
    await proxy.close();
    await first.stop();
    await second.stop();
  });
  const address = `127.0.0.1:${proxy.port}`;
  const onlyFirst = await EnclaveClient.connect(address, checkFor(first));
  const both = await EnclaveClient.connect(address, checkFor(first, [first.service.signer, second.service.signer]));
  t.teardown(() => {
    onlyFirst.close();
    both.close();
  });
  t.truthy((await onlyFirst.verifyPayment(await paymentRequest(first))).signature);

  proxy.retarget(Number(second.server.grpcAddress.split(':')[1]));
  await t.throwsAsync(onlyFirst.verifyPayment(await paymentRequest(second)), { message: /not a trusted witness/ });
  t.is(onlyFirst.signer, first.service.signer, 'the client still trusts only what it checked');
  const answer = await both.verifyPayment(await paymentRequest(second));
  t.is(answer.signer, second.service.signer);
  t.is(both.signer, second.service.signer);
});

test('on Nitro the client trusts the service only where the hardware vouches for its document, over gRPC and over HTTP alike', async (t) => {
  const pki = await makeNitroPki();
  const producer = await NitroAttestationProducer.open(new FixtureNitroModule(pki, pcrsOf(7)), pki.rootPem, Date.now());
  const enclave = await startTestEnclave({ producer });
  t.teardown(() => enclave.stop());
  const { measurement } = enclave.service.attestationDocument();
  t.is(measurement, `pcr0:${'07'.repeat(48)}`);

  const client = await EnclaveClient.connect(enclave.server.grpcAddress, documentCheck(measurement, [enclave.service.signer], pki.rootPem));
  t.teardown(() => client.close());
  t.is((await client.verifyPayment(await paymentRequest(enclave))).signer, enclave.service.signer);

  const otherRoot = (await makeNitroPki()).rootPem;
  await t.throwsAsync(EnclaveClient.connect(enclave.server.grpcAddress, documentCheck(measurement, [enclave.service.signer], otherRoot)), {
    message: /not the trusted root/,
  });

  const nonce = `0x${'5a'.repeat(32)}` as const;
  const { body } = await enclave.get(`/attestation?nonce=${nonce}`);
  const document = body.responseObject ?? body;
  t.is(document.evidence.kind, 'nitro');
  await t.notThrowsAsync(
    checkAttestationDocument(
      document,
      { measurement, signer: enclave.service.signer, nitro: { root: pki.rootPem, pcrs: { 0: `0x${'07'.repeat(48)}` } } },
      nonce,
    ),
  );
});

test('every call is counted by method and outcome: ok, the refusal’s gRPC status, untrusted, unavailable', async (t) => {
  const metrics = new PrometheusMetrics({ defaultMetrics: false });
  const enclave = await startTestEnclave();
  t.teardown(() => enclave.stop());
  const client = await EnclaveClient.connect(enclave.server.grpcAddress, checkFor(enclave), { metrics, deadlineMs: 2_000 });
  t.teardown(() => client.close());
  await client.verifyPayment(await paymentRequest(enclave));
  await t.throwsAsync(client.verifyPayment(await paymentRequest(enclave, { amount: OWED_CENTS - 1n })));
  await t.throwsAsync(EnclaveClient.connect(enclave.server.grpcAddress, checkFor(enclave, [`0x${'12'.repeat(20)}`]), { metrics }));

  let f = parseExposition(await metrics.metrics());
  t.is(sampleValue(f, 'peer_attestation_calls_total', { method: 'getAttestationDocument', outcome: 'ok' }), 1);
  t.is(sampleValue(f, 'peer_attestation_calls_total', { method: 'getAttestationDocument', outcome: 'untrusted' }), 1, 'a document that fails the check');
  t.is(sampleValue(f, 'peer_attestation_calls_total', { method: 'verifyPayment', outcome: 'ok' }), 1);
  const refusals = f
    .get('peer_attestation_calls_total')!
    .samples.filter((sample) => sample.labels.method === 'verifyPayment' && sample.labels.outcome !== 'ok');
  t.is(refusals.length, 1);
  t.regex(refusals[0]!.labels.outcome!, /^[a-z_]+$/, `a refusal is its gRPC status (${refusals[0]!.labels.outcome})`);
  t.is(sampleValue(f, 'peer_attestation_call_duration_seconds_count', { method: 'verifyPayment' }), 2);

  const request = await paymentRequest(enclave);
  await enclave.stop();
  await t.throwsAsync(client.verifyPayment(request));
  f = parseExposition(await metrics.metrics());
  const down = f
    .get('peer_attestation_calls_total')!
    .samples.find((sample) => sample.labels.method === 'verifyPayment' && ['unavailable', 'deadline_exceeded'].includes(sample.labels.outcome!));
  t.is(down?.value, 1, 'a service that is gone is unavailable (or past its deadline)');
});
