/**
 * A dispute that ends in a chargeback, end to end over HTTP on the test node's local chain
 * (docs/disputes.md, docs/chargebacks.md): a live payment settled on a maker's deposit with
 * dispute protection and a stake behind it is disputed with the attestation service's DKIM
 * attestation, left unpaid past dueAt on the test clock, and escalates; the escalation claims
 * the stake through the escrow, the indexer reads the escrow's record, and the payment and order
 * carry the chargeback under the dispute's own disputeId. Each webhook is delivered once.
 */
import test from 'ava';
import { sealSessionMaterial } from '../../../enclave/index.js';
import { escrowAbi } from '../../../indexer/chain/index.js';
import { parseUsdc } from '../../../machines/money.js';
import { DISPUTE_DUE_MS } from '../../../gateway/disputes/dispute-opening.js';
import { answerOf } from '../../support/checkout.js';
import { paymentView, protectedDeposit, settledPayment } from '../../support/chargeback-world.js';
import { MAKER } from '../../support/payment-flow.js';
import { untilOnClock } from '../../support/real-time-poll.js';
import { webhookWorld } from '../../support/webhooks.js';

const LIVE_NODE = { INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20 } as const;
const STAKE = 100_000_000n;

test('an attested dispute over a protected deposit, unpaid past dueAt, escalates and charges the payment back under its disputeId, each webhook once', async (t) => {
  const world = await webhookWorld(t, { config: LIVE_NODE, environment: 'LIVE' });
  const { gateway, receiver, merchant } = world;
  const node = gateway.node;
  const local = node.chain!.localChain!;
  const enclave = node.enclave!;
  const depositId = await protectedDeposit(local, STAKE);
  await untilOnClock(
    gateway.clock,
    async () => node.liquidity!.deposit(depositId.toString()),
    (deposit) => deposit?.disputeProtection === true,
    'the protected deposit in the book',
  );
  const settled = await settledPayment(gateway, merchant.liveKey, 'pay_disputechargeback00000001', depositId, '4199990031');

  const rawEmail = await enclave.mailer!.disputeEmail({ platform: 'venmo', paymentId: '4199990031', disputeId: 'VD-20261123-0777', date: new Date() });
  const use = {
    purpose: 'dispute' as const,
    platform: 'venmo',
    chainId: local.chainId,
    intentHash: settled.intentHash,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  };
  const attestation = await enclave.service.verifyDispute('venmo', 'dispute_venmo', {
    encryptedSessionMaterial: await sealSessionMaterial(enclave.service.attestationDocument(), { rawEmail }, use),
    params: {},
    chainId: local.chainId,
    intentHash: settled.intentHash,
  });
  const opened = await gateway.request('POST', '/api/v1/disputes', { body: JSON.parse(JSON.stringify(attestation)) });
  t.is(opened.status, 201, JSON.stringify(opened.body));
  const { disputeId, amountUsdc } = opened.body.responseObject as { disputeId: string; amountUsdc: string };
  t.is(disputeId, 'VD-20261123-0777');
  const [dispute] = answerOf(await gateway.request('GET', '/api/v1/merchants/me/disputes', { key: merchant.liveKey }), 200, 'disputes').disputes;
  t.like(dispute, { paymentId: settled.paymentId, stakeStatusAtOpen: 'PROTECTED', status: 'OPEN' });

  // Unpaid past dueAt: the dispute escalates, and the escalation claims the maker's stake.
  await world.advance(DISPUTE_DUE_MS + 60_000);
  const escalated = answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${dispute.id}`, { key: merchant.liveKey }), 200, 'escalated');
  t.like(escalated, { status: 'ESCALATED', escalatedAt: dispute.dueAt, paidTxHash: null });

  const charged = await untilOnClock(
    gateway.clock,
    () => paymentView(gateway, settled.paymentId),
    (view) => view?.chargebackStatus === 'CHARGEBACKED',
    'the escalation’s chargeback to reach the payment',
  );
  t.is(charged!.status, 'SETTLED', 'a chargeback never changes status');
  t.like(charged!.payment.chargeback, {
    paymentId: settled.paymentId,
    intentHash: settled.intentHash,
    // The chain records the dispute's own id: the one its DISPUTE_* payloads and read carry.
    disputeId,
    status: 'CHARGEBACKED',
    refundOverlap: 'NONE',
    bridgeOrSweepOverlap: null,
  });
  t.is(parseUsdc(charged!.payment.chargeback!.compensatedUsdcAmount), BigInt(amountUsdc), 'the stake held enough: the whole claim');
  t.is(
    await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'stakeOf', args: [MAKER.address] }),
    STAKE - BigInt(amountUsdc),
  );
  const claimed = await untilOnClock(
    gateway.clock,
    async () => answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${dispute.id}`, { key: merchant.liveKey }), 200, 'claimed'),
    (read) => read.stakeClaimTxHash !== null,
    'the stake claim’s transaction on the dispute',
  );
  t.is(claimed.stakeClaimTxHash, charged!.payment.chargeback!.disputeTxHash, 'the dispute’s claim is the transaction the chargeback was recorded in');
  const order = (await gateway.request('GET', `/api/v1/orders/${settled.orderId}`)).body.responseObject.order;
  t.is(order.status, 'FULFILLED');
  t.deepEqual(order.chargebacks, [charged!.payment.chargeback]);

  const expected = ['DISPUTE_OPENED', 'DISPUTE_ESCALATED', 'PAYMENT_CHARGEBACKED', `ORDER_${order.chargebackStatus}`];
  const relevant = () => receiver.delivered().filter((hook) => hook.type.startsWith('DISPUTE_') || hook.type.includes('CHARGEBACK'));
  await untilOnClock(
    gateway.clock,
    async () => relevant(),
    (hooks) => expected.every((type) => hooks.some((hook) => hook.type === type)),
    'the dispute and chargeback webhooks',
  );
  // Whatever else is still due is delivered before the count: nothing may arrive twice.
  await node.system.effectsIdle();
  const hooks = relevant();
  t.deepEqual(hooks.map((hook) => hook.type).sort(), [...expected].sort(), 'each webhook once');
  const of = (type: string) => hooks.find((hook) => hook.type === type)!;
  t.like(of('DISPUTE_ESCALATED').data, { disputeId, status: 'ESCALATED', paymentId: settled.paymentId });
  t.is(of('PAYMENT_CHARGEBACKED').data.trigger.chargeback.disputeId, disputeId);
  t.deepEqual(of(`ORDER_${order.chargebackStatus}`).data.trigger, { type: 'CHARGEBACK_APPLIED', chargeback: charged!.payment.chargeback });
});
