/**
 * Disputes over sandbox payments through the API (docs/disputes.md): a sandbox key
 * simulates one over its settled payment; the merchant reads it, pays it or lets it
 * escalate on the test clock; DISPUTE_* webhooks carry document 1's dispute payload.
 */
import test from 'ava';
import { answerOf, placeOrder, startPayment } from '../../support/checkout.js';
import { untilListed } from '../../support/merchant-events.js';
import { webhookWorld } from '../../support/webhooks.js';
import type { TestGateway } from '../../support/gateway.js';
import { timerFireMessage } from '../../../actors/runtime/index.js';

const DAY = 24 * 60 * 60 * 1000;
const TX = `0x${'ab'.repeat(32)}`;

async function settledPayment(gateway: TestGateway, key: string) {
  return answerOf(await gateway.request('POST', '/api/v1/sandbox/test-order', { key, body: {} }), 201, 'sandbox test order') as { order: any; payment: any };
}

async function simulate(gateway: TestGateway, key: string, body: Record<string, unknown>) {
  return gateway.request('POST', '/api/v1/merchants/me/disputes/simulate', { key, body });
}

test('a simulated dispute opens once over a settled payment, reads with its payload and merchant fields, and is announced as DISPUTE_OPENED', async (t) => {
  const world = await webhookWorld(t);
  const { gateway, key } = world;
  const { order, payment } = await settledPayment(gateway, key);
  const opened = await simulate(gateway, key, { paymentId: payment.id });
  t.is(opened.status, 201, JSON.stringify(opened.body));
  const dispute = opened.body.responseObject;
  t.like(dispute, {
    disputeId: `SIM-${payment.id}`,
    orderId: order.id,
    paymentId: payment.id,
    intentHash: payment.railIdentifier,
    amountUsdc: payment.quote.signalIntent.amount,
    caseAmount: payment.paymentAmount,
    caseCurrency: payment.currency,
    status: 'OPEN',
    paidTxHash: null,
    merchantId: world.merchant.sandboxId,
    rail: payment.rail,
    platform: 'sandbox',
    stakeStatusAtOpen: 'UNPROTECTED',
    fulfillTxHash: null,
    paidAt: null,
    escalatedAt: null,
    orderRefunded: false,
    activeAttempt: null,
  });
  t.regex(dispute.id, /^dsp_[0-9a-f]{24}$/);
  t.regex(dispute.sellerAddress, /^0x[0-9a-fA-F]{40}$/);
  t.is(Date.parse(dispute.dueAt) - Date.parse(dispute.openedAt), 7 * DAY);

  const again = await simulate(gateway, key, { paymentId: payment.id });
  t.is(again.status, 200);
  t.is(again.body.responseObject.id, dispute.id);

  const read = answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${dispute.id}`, { key }), 200, 'dispute read');
  t.deepEqual(read, dispute);
  const list = answerOf(await gateway.request('GET', '/api/v1/merchants/me/disputes?status=OPEN', { key }), 200, 'dispute list');
  t.like(list, { total: 1, page: 1, limit: 20 });
  t.deepEqual(list.disputes, [dispute]);
  t.is(answerOf(await gateway.request('GET', '/api/v1/merchants/me/disputes?status=PAID', { key }), 200, 'paid list').total, 0);

  const [event] = await untilListed(gateway, key, 1, 'type=DISPUTE_OPENED');
  const payload = {
    disputeId: dispute.disputeId,
    orderId: order.id,
    paymentId: payment.id,
    intentHash: dispute.intentHash,
    amountUsdc: dispute.amountUsdc,
    caseAmount: dispute.caseAmount,
    caseCurrency: dispute.caseCurrency,
    sellerAddress: dispute.sellerAddress,
    status: 'OPEN',
    dueAt: dispute.dueAt,
    paidTxHash: null,
  };
  t.like(event, { id: `dispute_${dispute.disputeId}_DISPUTE_OPENED`, type: 'DISPUTE_OPENED', version: 1 });
  t.deepEqual(event.data, payload);
  await world.receiver.until(() => world.receiver.delivered().some((body) => body.type === 'DISPUTE_OPENED'));
  t.deepEqual(world.receiver.delivered().find((body) => body.type === 'DISPUTE_OPENED')!.data, payload);
});

test('the merchant pays a dispute by its transaction: PAID with paidTxHash and DISPUTE_PAID; one hash pays one dispute; a paid dispute never escalates', async (t) => {
  const world = await webhookWorld(t);
  const { gateway, key } = world;
  const first = (await settledPayment(gateway, key)).payment;
  const second = (await settledPayment(gateway, key)).payment;
  const a = answerOf(await simulate(gateway, key, { paymentId: first.id }), 201, 'first dispute');
  const b = answerOf(await simulate(gateway, key, { paymentId: second.id }), 201, 'second dispute');

  const paid = await gateway.request('POST', `/api/v1/merchants/me/disputes/${a.id}/payment`, { key, body: { txHash: TX } });
  t.is(paid.status, 200, JSON.stringify(paid.body));
  t.like(paid.body.responseObject, { status: 'PAID', paidTxHash: TX });
  t.truthy(paid.body.responseObject.paidAt);
  t.is((await gateway.request('POST', `/api/v1/merchants/me/disputes/${a.id}/payment`, { key, body: { txHash: TX } })).status, 200, 'the same payment again');

  const reused = await gateway.request('POST', `/api/v1/merchants/me/disputes/${b.id}/payment`, { key, body: { txHash: TX } });
  t.is(reused.status, 409);
  t.is(reused.body.errorCode, 'DISPUTE_TRANSFER_USED');
  const other = await gateway.request('POST', `/api/v1/merchants/me/disputes/${a.id}/payment`, { key, body: { txHash: `0x${'cd'.repeat(32)}` } });
  t.is(other.status, 409);
  t.is(other.body.errorCode, 'DISPUTE_NOT_OPEN');

  await world.advance(8 * DAY);
  t.is(answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${a.id}`, { key }), 200, 'paid read').status, 'PAID');
  const escalated = answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${b.id}`, { key }), 200, 'escalated read');
  t.like(escalated, { status: 'ESCALATED', escalatedAt: b.dueAt, paidTxHash: null });
  const late = await gateway.request('POST', `/api/v1/merchants/me/disputes/${b.id}/payment`, { key, body: { txHash: `0x${'ef'.repeat(32)}` } });
  t.is(late.body.errorCode, 'DISPUTE_NOT_OPEN');

  const events = await untilListed(gateway, key, 4, 'type=DISPUTE_OPENED&type=DISPUTE_PAID&type=DISPUTE_ESCALATED');
  t.deepEqual(
    events.map((event) => `${event.type}:${event.data.paymentId}`).sort(),
    [`DISPUTE_ESCALATED:${second.id}`, `DISPUTE_OPENED:${first.id}`, `DISPUTE_OPENED:${second.id}`, `DISPUTE_PAID:${first.id}`].sort(),
  );
  t.like(
    events.find((event) => event.type === 'DISPUTE_PAID'),
    { id: `dispute_${a.disputeId}_DISPUTE_PAID`, version: 1, data: { status: 'PAID', paidTxHash: TX } },
  );
  t.like(
    events.find((event) => event.type === 'DISPUTE_ESCALATED'),
    { id: `dispute_${b.disputeId}_DISPUTE_ESCALATED`, data: { status: 'ESCALATED', paidTxHash: null } },
  );
});

test('an escalated dispute over a protected deposit is claimed from the stake once; an unprotected one is not claimed', async (t) => {
  const claims: Array<{ intentHash: string; disputeId: string; amountUsdc: bigint }> = [];
  const { startTestGateway } = await import('../../support/gateway.js');
  const gateway = await startTestGateway(
    {},
    {
      stakeClaims: {
        compensate: async (claim) => {
          claims.push(claim);
          return { transactionHash: `0x${'5c'.repeat(32)}` };
        },
      },
    },
  );
  t.teardown(() => gateway.stop());
  const { sandboxKey: key } = await gateway.createMerchant();
  const protectedPayment = (await settledPayment(gateway, key)).payment;
  const plainPayment = (await settledPayment(gateway, key)).payment;
  const covered = answerOf(await simulate(gateway, key, { paymentId: protectedPayment.id, disputeProtection: true }), 201, 'protected dispute');
  const plain = answerOf(await simulate(gateway, key, { paymentId: plainPayment.id }), 201, 'plain dispute');
  t.is(covered.stakeStatusAtOpen, 'PROTECTED');
  const [due] = (await gateway.node.system.documents('dispute').findOne({ _id: covered.id }))!.timers;

  await gateway.clock.advance(7 * 24 * 60 * 60 * 1000);
  await gateway.node.system.effectsIdle();
  // The due timer delivered again (a node that crashed before its firing was saved, a second scheduler): as it was, and under a fresh message id.
  const fire = timerFireMessage({ id: due!.id, dueAt: due!.dueAt });
  const address = { kind: 'dispute', id: covered.id };
  await gateway.node.system.askAt(address, fire.event, { messageId: fire.id }).catch(() => null);
  await gateway.node.system.askAt(address, fire.event, { messageId: `${fire.id}:again` }).catch(() => null);
  await gateway.clock.advance(60_000);
  await gateway.node.system.effectsIdle();
  t.deepEqual(claims, [{ intentHash: covered.intentHash, disputeId: covered.disputeId, amountUsdc: BigInt(covered.amountUsdc) }]);
  t.like(answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${covered.id}`, { key }), 200, 'covered'), {
    status: 'ESCALATED',
    stakeClaimTxHash: `0x${'5c'.repeat(32)}`,
  });
  t.like(answerOf(await gateway.request('GET', `/api/v1/merchants/me/disputes/${plain.id}`, { key }), 200, 'plain'), {
    status: 'ESCALATED',
    stakeClaimTxHash: null,
  });
});

test('only a settled payment of the key’s own merchant and environment is disputed, and only the owner reads a dispute', async (t) => {
  const world = await webhookWorld(t);
  const { gateway, key } = world;
  const open = await startPayment(await placeOrder(gateway, key));
  const unsettled = await simulate(gateway, key, { paymentId: open.id });
  t.is(unsettled.status, 409);
  t.is(unsettled.body.errorCode, 'PAYMENT_NOT_DISPUTABLE');

  const { payment } = await settledPayment(gateway, key);
  const live = await simulate(gateway, world.merchant.liveKey, { paymentId: payment.id });
  t.is(live.status, 403);
  t.is(live.body.errorCode, 'SANDBOX_ONLY');
  const other = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x2222222222222222222222222222222222222222' });
  t.is((await simulate(gateway, other.sandboxKey, { paymentId: payment.id })).status, 404);

  const dispute = answerOf(await simulate(gateway, key, { paymentId: payment.id }), 201, 'dispute');
  for (const reader of [other.sandboxKey, other.liveKey, world.merchant.liveKey]) {
    t.is((await gateway.request('GET', `/api/v1/merchants/me/disputes/${dispute.id}`, { key: reader })).status, 404);
    t.is((await gateway.request('POST', `/api/v1/merchants/me/disputes/${dispute.id}/payment`, { key: reader, body: { txHash: TX } })).status, 404);
    t.is(answerOf(await gateway.request('GET', '/api/v1/merchants/me/disputes', { key: reader }), 200, 'list').total, 0);
  }
  t.is((await gateway.request('GET', '/api/v1/merchants/me/disputes/dsp_1', { key })).status, 400);
});
