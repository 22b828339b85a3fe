/**
 * Remediation actions end to end on the embedded node and its local chain, through HTTP: an
 * extend whose transaction moves the intent's expiry on chain, a recreate that reopens a
 * cancelled attempt as a new intent that then settles from a customer's proof, and a fulfil from
 * the customer's receipt id read by the maker's kept session (the seller path).
 */
import test from 'ava';
import { keccak256, toBytes } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { paymentReference } from '../../machines/payment/index.js';
import { orchestratorAbi } from '../../indexer/chain/index.js';
import { sealSessionMaterial } from '../../enclave/index.js';
import type { TestGateway } from '../support/gateway.js';
import { MAKER_PAYEE } from '../support/payment-flow.js';
import { paymentIdFor } from '../support/remediation.js';
import { FINAL_ACTION_STATUSES, actionOnce, liveRemediationNode, paymentOnce, signalledAttempt } from '../support/remediation-node.js';

const HOUR = 3_600_000;

test('extend: the intent’s expiry moves 24 hours on chain, the window follows, and the attempt stays open past its first window', async (t) => {
  const { gateway, merchant, depositId } = await liveRemediationNode(t);
  const local = gateway.node.chain!.localChain!;
  const attempt = await signalledAttempt(gateway, merchant.liveKey, depositId, paymentIdFor('extend'));
  const intentHash = attempt.awaiting.payment.railIdentifier as `0x${string}`;
  const before = await local.publicClient.readContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'getIntent', args: [intentHash] });

  const accepted = await gateway.request('POST', attempt.path('extend'), { key: merchant.liveKey, body: { idempotencyKey: 'extend-e2e-0001' } });
  t.is(accepted.status, 202);
  const action = await actionOnce(gateway, merchant.liveKey, attempt.placed.id, accepted.body.responseObject.actionId, (status) =>
    FINAL_ACTION_STATUSES.includes(status),
  );
  t.is(action.status, 'SUCCEEDED', JSON.stringify(action.error));
  const after = await local.publicClient.readContract({ address: local.orchestrator, abi: orchestratorAbi, functionName: 'getIntent', args: [intentHash] });
  t.is(after.expiryTime - before.expiryTime, 86_400n);
  const window = Date.parse(attempt.awaiting.payment.quoteExpiresAt);
  t.is(action.result.confirmedExpiryTime, new Date(window + 24 * HOUR).toISOString());
  t.is(action.payment.quoteExpiresAt, action.result.confirmedExpiryTime);
  t.is(action.payment.railIdentifier, intentHash, 'an extension keeps the intent');

  // Past the first window the attempt is still open; it closes at the new one.
  await gateway.clock.advance(2 * HOUR);
  await gateway.node.system.effectsIdle();
  t.is((await paymentOnce(gateway, attempt.input.id, () => true, 'read')).status, 'CREATED');
  await gateway.clock.advance(23 * HOUR);
  await paymentOnce(gateway, attempt.input.id, (view) => view.status === 'EXPIRED', 'the extended window to close');
  // A finished action never changes again, whatever the attempt does later.
  t.is((await actionOnce(gateway, merchant.liveKey, attempt.placed.id, action.actionId, () => true)).status, 'SUCCEEDED');
});

test('recreate: a cancelled attempt reopens as a new intent, with no webhook, and settles from a proof', async (t) => {
  const { gateway, events, merchant, depositId } = await liveRemediationNode(t);
  const { node } = gateway;
  const local = node.chain!.localChain!;
  const attempt = await signalledAttempt(gateway, merchant.liveKey, depositId, paymentIdFor('recreate'));
  const firstIntent = attempt.awaiting.payment.railIdentifier as `0x${string}`;
  await node.system.askAt({ kind: 'payment', id: attempt.input.id }, { type: 'CANCEL', reason: 'CUSTOMER', at: new Date(gateway.clock.now()).toISOString() });
  await paymentOnce(gateway, attempt.input.id, (view) => view.status === 'CANCELLED', 'the cancel');

  const accepted = await gateway.request('POST', attempt.path('recreate'), { key: merchant.liveKey });
  t.is(accepted.status, 202);
  const action = await actionOnce(gateway, merchant.liveKey, attempt.placed.id, accepted.body.responseObject.actionId, (status) =>
    FINAL_ACTION_STATUSES.includes(status),
  );
  t.is(action.status, 'SUCCEEDED', JSON.stringify(action.error));
  const newIntent = action.result.intentHash as `0x${string}`;
  t.not(newIntent, firstIntent);
  t.like(action.payment, { status: 'CREATED', railIdentifier: newIntent });
  t.true(Date.parse(action.payment.quoteExpiresAt) > Date.parse(attempt.awaiting.payment.quoteExpiresAt) - HOUR);
  const hosted = await gateway.request('GET', `/api/v1/orders/${attempt.placed.id}`);
  t.is(hosted.body.responseObject.currentPayment.railIdentifier, newIntent);

  // The customer pays the reopened attempt and proves it.
  const simulator = node.enclave!.simulator!;
  const material = simulator.openSession('venmo', { id: '7000111', username: 'buyer' });
  const block = await local.publicClient.getBlock();
  simulator.recordPayment('venmo', material, {
    paymentId: '4199990077',
    amount: attempt.input.paymentAmountCents,
    currency: 'USD',
    payee: MAKER_PAYEE,
    timestampMs: Number(block.timestamp) * 1000 + 60_000,
    status: 'completed',
  });
  const sealed = await sealSessionMaterial(node.enclave!.service.attestationDocument(), material, {
    purpose: 'payment',
    platform: 'venmo',
    chainId: local.chainId,
    intentHash: newIntent,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  });
  await node.system.askAt(
    { kind: 'payment', id: attempt.input.id },
    {
      type: 'SUBMIT_PROOF',
      proof: { encryptedSessionMaterial: sealed, params: { PAYMENT_ID: '4199990077' } },
      at: new Date(gateway.clock.now()).toISOString(),
    },
  );
  const settled = await paymentOnce(gateway, attempt.input.id, (view) => view.status === 'SETTLED', 'the reopened attempt to settle');
  t.regex(settled.payment.fulfillTransaction!, /^0x[0-9a-f]{64}$/);
  await node.system.effectsIdle();
  const types = events.filter((event) => event.actor.id === attempt.input.id).map((event) => event.type);
  t.deepEqual(types, ['PAYMENT_CREATED', 'PAYMENT_CANCELLED', 'PAYMENT_SETTLED'], 'nothing announces the reopening');
});

/** The maker's Venmo session kept with the node's attestation service for the seller path. */
async function keepMakerSession(gateway: TestGateway) {
  const { node } = gateway;
  const material = node.enclave!.simulator!.openSession('venmo', { id: MAKER_PAYEE, username: 'maker' });
  const owner = privateKeyToAccount(generatePrivateKey());
  // The sealed envelope lives minutes; the credential it carries, as long as the platform's session.
  const expiresAt = Math.floor(Date.now() / 1000) + 7 * 86_400;
  const sealed = await sealSessionMaterial(node.enclave!.service.attestationDocument(), material, {
    purpose: 'seller',
    platform: 'venmo',
    callerAddress: owner.address,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  });
  await node.enclave!.service.uploadSellerCredential('venmo', {
    encryptedSessionMaterial: sealed,
    callerAddress: owner.address,
    payeeDetails: keccak256(toBytes(MAKER_PAYEE)),
    expiresAt,
  });
  return material;
}

test('fulfill-sar: the receipt id is read by the maker’s kept session, the intent fulfilled on chain, the order fulfilled; a wrong id fails', async (t) => {
  const { gateway, events, merchant, depositId } = await liveRemediationNode(t);
  const { node } = gateway;
  const local = node.chain!.localChain!;
  const maker = await keepMakerSession(gateway);
  const attempt = await signalledAttempt(gateway, merchant.liveKey, depositId, paymentIdFor('fulfil'), { sellerRelease: true });
  const intentHash = attempt.awaiting.payment.railIdentifier as `0x${string}`;
  const block = await local.publicClient.getBlock();
  node.enclave!.simulator!.recordPayment('venmo', maker, {
    paymentId: '4199990123',
    amount: attempt.input.paymentAmountCents,
    currency: 'USD',
    payee: MAKER_PAYEE,
    payer: '7777000111',
    direction: 'incoming',
    timestampMs: Number(block.timestamp) * 1000 + 60_000,
    status: 'completed',
    note: `for my order ${paymentReference(intentHash)}`,
  });

  // A wrong id first: the seller path finds no such payment, the action fails, the attempt awaits payment again.
  const wrong = await gateway.request('POST', attempt.path('fulfill-sar'), { key: merchant.liveKey, body: { txId: '4199990999' } });
  t.is(wrong.status, 202);
  const failed = await actionOnce(gateway, merchant.liveKey, attempt.placed.id, wrong.body.responseObject.actionId, (status) => status === 'FAILED');
  t.is(failed.error.code, 'REMEDIATION_FAILED');
  t.like(failed.payment, { status: 'CREATED', railIdentifier: intentHash });

  const accepted = await gateway.request('POST', attempt.path('fulfill-sar'), { key: merchant.liveKey, body: { txId: '4199990123' } });
  t.is(accepted.status, 202);
  const action = await actionOnce(gateway, merchant.liveKey, attempt.placed.id, accepted.body.responseObject.actionId, (status) =>
    FINAL_ACTION_STATUSES.includes(status),
  );
  t.is(action.status, 'SUCCEEDED', JSON.stringify(action.error));
  t.regex(action.result.fulfillTxHash, /^0x[0-9a-f]{64}$/);
  t.is(action.result.dispatchAttemptId, `${attempt.input.id}-fulfil-1`);
  t.like(action.payment, { status: 'SETTLED', fulfillTransaction: action.result.fulfillTxHash });
  const receipt = await local.publicClient.getTransactionReceipt({ hash: action.result.fulfillTxHash });
  t.is(receipt.status, 'success');

  // The first action stays FAILED; a new request on the settled attempt is no longer eligible.
  t.is((await actionOnce(gateway, merchant.liveKey, attempt.placed.id, failed.actionId, () => true)).status, 'FAILED');
  const again = await gateway.request('POST', attempt.path('fulfill-sar'), { key: merchant.liveKey, body: { txId: '4199990123' } });
  t.deepEqual(again.body.responseObject, { code: 'PAYMENT_NOT_ELIGIBLE', reason: 'PAYMENT_STATUS_NOT_ELIGIBLE' });
  await node.system.effectsIdle();
  const types = events.filter((event) => [attempt.placed.id, attempt.input.id].includes(event.actor.id)).map((event) => event.type);
  t.deepEqual(types, ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED']);
});
