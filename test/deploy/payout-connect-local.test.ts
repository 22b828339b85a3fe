/**
 * Connecting the customer's Venmo account (document 2; docs/payout-checkout.md, "Connecting an
 * account"), end to end on a node with the local chain and the attestation service: the customer
 * signs in to Venmo in the platform simulator, seals that session to the attestation service for
 * the payout's wallet, and gets an identity attestation of the account (document 3, POST
 * /identity); the checkout takes it and the payout is READY with the account connected. An
 * attestation of another account, of another payout, or with its signature altered changes
 * nothing; once the connection lapses, confirming is CASHOUT_CREDENTIAL_INACTIVE until the
 * account is connected again.
 */
import test from 'ava';
import type { Address, Hex } from 'viem';
import { sealSessionMaterial } from '../../enclave/index.js';
import { answerOf } from '../support/checkout.js';
import { BuyerSimulator, trustedDocument, type BuyerSession } from '../support/buyer-simulator.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { fundedLocalPayout } from '../support/local-payout.js';

async function attestationFor(gateway: TestGateway, session: BuyerSession, wallet: Address, senderId = session.account.id) {
  const enclave = gateway.node.enclave!;
  const serviceUrl = enclave.server.httpUrl;
  const document = await trustedDocument(serviceUrl, { measurement: enclave.service.attestationDocument().measurement, signer: enclave.service.signer });
  const sealed = await sealSessionMaterial(document, session.material, {
    purpose: 'identity',
    platform: session.platform,
    callerAddress: wallet,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  });
  const response = await fetch(`${serviceUrl}/identity`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      platform: 'venmo',
      actionType: 'register_venmo',
      callerAddress: wallet,
      encryptedSessionMaterial: sealed,
      params: { SENDER_ID: senderId },
      chainId: gateway.node.payments.chain!.chainId,
    }),
  });
  const envelope = (await response.json()) as { responseObject: { typedDataValue: Record<string, unknown>; signature: Hex; signer: Address } };
  if (!response.ok) throw new Error(`POST /identity answered ${response.status}: ${JSON.stringify(envelope)}`);
  const { typedDataValue, signature, signer } = envelope.responseObject;
  return { typedDataValue, signature, signer };
}

test('a Venmo account connected with its identity attestation makes the payout READY; another account, another payout’s or an altered attestation does not; a lapsed connection must be made again', async (t) => {
  t.timeout(180_000);
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20, PAYOUT_FUNDING_POLL_MS: 1_000 });
  t.teardown(() => gateway.stop());
  const platforms = new BuyerSimulator(gateway.node.enclave!.simulator!.url);
  // Ana's Venmo account, as she gives it to the checkout and signs in to it.
  const ana = await platforms.signIn('venmo', 'ana', '1618033988');
  const { created, checkout, signIn } = await fundedLocalPayout(gateway, 'connect-local-1');
  const login = await signIn();
  const pending = answerOf(await checkout('PUT', '/method', { rail: 'venmo', payeeHandle: ana.account.id }, login), 200, 'the method');
  t.like(pending, { payout: { status: 'FUNDED' }, actions: ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] });
  const doc = await gateway.node.system.documents('payout').findOne({ _id: created.payoutId });
  const wallet = (doc!.view as { walletAddress: Address }).walletAddress;

  const refusedUnchanged = async (body: unknown, what: string) => {
    const answer = await checkout('POST', '/connect', body, login);
    t.is(answer.status, 422, what);
    t.is(answer.body.errorCode, 'CASHOUT_PAYEE_HANDLE_INVALID', what);
    t.like(answerOf(await checkout('GET'), 200, 'the state'), { payout: { status: 'FUNDED' }, actions: ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT'] }, what);
  };
  // Someone else's Venmo account.
  const bob = await platforms.signIn('venmo', 'bob');
  await refusedUnchanged({ attestation: await attestationFor(gateway, bob, wallet) }, 'another account');
  // Ana's account, attested for another wallet than this payout's.
  await refusedUnchanged({ attestation: await attestationFor(gateway, ana, '0x1111111111111111111111111111111111111111') }, 'another payout');
  // Ana's, with a byte of its signature changed.
  const genuine = await attestationFor(gateway, ana, wallet);
  const flipped = `${genuine.signature.slice(0, 10)}${genuine.signature[10] === '0' ? '1' : '0'}${genuine.signature.slice(11)}`;
  await refusedUnchanged({ attestation: { ...genuine, signature: flipped } }, 'an altered signature');
  t.is((await checkout('POST', '/connect', { attestation: { ...genuine, signer: 'me' } }, login)).status, 400, 'not an attestation');

  const connected = answerOf(await checkout('POST', '/connect', { attestation: genuine }, login), 200, 'the connection');
  t.like(connected, { payout: { status: 'READY' }, actions: ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'], method: { rail: 'venmo', handle: ana.account.id } });

  // Past the attestation's validUntil the connection has lapsed: confirming needs it made again.
  const validUntilMs = Number(genuine.typedDataValue.validUntil) * 1000;
  await gateway.clock.advance(validUntilMs - gateway.clock.now() + 1_000);
  // The sign-in lapsed too, long before.
  const again = await signIn();
  const lapsed = await checkout('POST', '/confirm', undefined, again);
  t.is(lapsed.status, 422);
  t.is(lapsed.body.errorCode, 'CASHOUT_CREDENTIAL_INACTIVE');
  const expired = await checkout('POST', '/connect', { attestation: genuine }, again);
  t.is(expired.body.errorCode, 'CASHOUT_PAYEE_HANDLE_INVALID', 'an expired attestation connects nothing');
});
