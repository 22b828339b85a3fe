/**
 * Chargebacks over HTTP on the test node's local chain (docs/chargebacks.md): two live payments
 * settled end to end on a protected deposit, charged back through staff's trigger
 * (POST /internal/v1/payments/:id/chargebacks). The first claim finds the maker's stake short and is
 * compensated with what it holds; the second, after the maker stakes more, in full. The payments
 * and orders show the facts, the list filters find them, and the merchant's endpoint receives
 * PAYMENT_CHARGEBACKED, ORDER_PARTIALLY_CHARGEBACKED and ORDER_CHARGEBACKED with data.trigger. A
 * payment of an order delivered on Arbitrum, bridged after settling, is charged back with its
 * bridge named as it stood (bridgeOrSweepOverlap).
 */
import test from 'ava';
import { escrowAbi } from '../../indexer/chain/index.js';
import { untilOnClock } from '../support/real-time-poll.js';
import { paymentView, protectedDeposit, settledPayment, stake } from '../support/chargeback-world.js';
import { MAKER } from '../support/payment-flow.js';
import { webhookWorld } from '../support/webhooks.js';

const LIVE_NODE = { INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20 } as const;

test('staff charge back settled payments: the stake compensates on chain, the payments and orders carry the facts, the filters find them, three webhooks fire', async (t) => {
  const world = await webhookWorld(t, { config: LIVE_NODE, environment: 'LIVE' });
  const { gateway, receiver, merchant } = world;
  const local = gateway.node.chain!.localChain!;
  // 10 USDC staked: short of a 25 USDC claim.
  const depositId = await protectedDeposit(local, 10_000_000n);
  const short = await settledPayment(gateway, merchant.liveKey, 'pay_chargebackshort000000001', depositId, '4199990011');
  const full = await settledPayment(gateway, merchant.liveKey, 'pay_chargebackfull0000000001', depositId, '4199990012');
  const payments = (query: string) => gateway.request('GET', `/api/v1/merchants/me/payments${query}`, { key: merchant.liveKey });
  const orders = (query: string) => gateway.request('GET', `/api/v1/merchants/me/orders${query}`, { key: merchant.liveKey });
  const paymentIds = async (query: string) => (await payments(query)).body.responseObject.payments.map((row: { id: string }) => row.id).sort();
  const orderIds = async (query: string) => (await orders(query)).body.responseObject.orders.map((row: { id: string }) => row.id).sort();
  t.deepEqual(await paymentIds('?chargebackStatus=CHARGEBACKED'), [], 'nothing charged back yet');

  const first = await gateway.admin('POST', `/internal/v1/payments/${short.paymentId}/chargebacks`, { disputeId: 'dsp_short', amountUsdc: '25' });
  t.is(first.status, 202, JSON.stringify(first.body));
  t.like(first.body.responseObject, { paymentId: short.paymentId, intentHash: short.intentHash, disputeId: 'dsp_short' });
  t.regex(first.body.responseObject.transactionHash, /^0x[0-9a-f]{64}$/);
  // Asked again for the same dispute: the same transaction, nothing sent twice.
  const again = await gateway.admin('POST', `/internal/v1/payments/${short.paymentId}/chargebacks`, { disputeId: 'dsp_short', amountUsdc: '25' });
  t.is(again.body.responseObject.transactionHash, first.body.responseObject.transactionHash);

  const charged = await untilOnClock(
    gateway.clock,
    () => paymentView(gateway, short.paymentId),
    (view) => view?.chargebackStatus === 'CHARGEBACKED',
    'the chargeback to reach the payment',
  );
  t.is(charged!.status, 'SETTLED', 'a chargeback never changes status');
  t.like(charged!.payment.chargeback, {
    paymentId: short.paymentId,
    intentHash: short.intentHash,
    disputeId: 'dsp_short',
    status: 'CHARGEBACKED',
    // The stake held 10: that is what compensated the 25 claimed.
    compensatedUsdcAmount: '10',
    disputeTxHash: first.body.responseObject.transactionHash,
    refundOverlap: 'NONE',
    bridgeOrSweepOverlap: null,
  });
  t.is(await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'stakeOf', args: [MAKER.address] }), 0n);

  // An empty stake compensates nothing: refused, and nothing is recorded.
  const empty = await gateway.admin('POST', `/internal/v1/payments/${full.paymentId}/chargebacks`, { disputeId: 'dsp_empty', amountUsdc: '25' });
  t.is(empty.status, 422);
  t.is(empty.body.errorCode, 'CHARGEBACK_REFUSED');
  t.regex(empty.body.message, /StakeExhausted/);

  await stake(local, 100_000_000n);
  const second = await gateway.admin('POST', `/internal/v1/payments/${full.paymentId}/chargebacks`, { disputeId: 'dsp_full', amountUsdc: '25' });
  t.is(second.status, 202, JSON.stringify(second.body));
  // The same payment charged back again under another dispute: the escrow compensates an intent once.
  const twice = await gateway.admin('POST', `/internal/v1/payments/${short.paymentId}/chargebacks`, { disputeId: 'dsp_other', amountUsdc: '1' });
  t.is(twice.status, 422);
  t.regex(twice.body.message, /ChargebackAlreadyCompensated/);

  await untilOnClock(
    gateway.clock,
    () => paymentView(gateway, full.paymentId),
    (view) => view?.chargebackStatus === 'CHARGEBACKED',
    'the second chargeback to reach its payment',
  );

  const shortOrder = (await gateway.request('GET', `/api/v1/orders/${short.orderId}`)).body.responseObject.order;
  t.like(shortOrder, { status: 'FULFILLED', chargebackStatus: 'PARTIALLY_CHARGEBACKED' });
  t.deepEqual(shortOrder.chargebacks, [charged!.payment.chargeback]);
  const fullOrder = (await gateway.request('GET', `/api/v1/orders/${full.orderId}`)).body.responseObject.order;
  t.like(fullOrder, { status: 'FULFILLED', chargebackStatus: 'CHARGEBACKED' });
  t.like(fullOrder.chargebacks[0], { disputeId: 'dsp_full', compensatedUsdcAmount: '25' });

  t.deepEqual(await paymentIds('?chargebackStatus=CHARGEBACKED'), [full.paymentId, short.paymentId].sort());
  t.deepEqual(await paymentIds('?chargebackStatus=NONE'), []);
  t.deepEqual(await orderIds('?chargebackStatus=PARTIALLY_CHARGEBACKED'), [short.orderId]);
  t.deepEqual(await orderIds('?chargebackStatus=CHARGEBACKED'), [full.orderId]);
  t.deepEqual(await orderIds('?chargebackStatus=NONE'), []);

  const chargebackHooks = () => receiver.delivered().filter((hook) => hook.type.includes('CHARGEBACK'));
  await untilOnClock(
    gateway.clock,
    async () => chargebackHooks(),
    (hooks) => hooks.length >= 4,
    'the chargeback webhooks',
  );
  const hooks = chargebackHooks();
  const of = (type: string, orderId: string) => hooks.filter((hook) => hook.type === type && (hook.data.order?.id ?? hook.data.payment?.orderId) === orderId);
  t.is(of('PAYMENT_CHARGEBACKED', short.orderId).length, 1);
  t.is(of('PAYMENT_CHARGEBACKED', full.orderId).length, 1);
  t.is(of('ORDER_PARTIALLY_CHARGEBACKED', short.orderId).length, 1);
  t.is(of('ORDER_CHARGEBACKED', full.orderId).length, 1);
  t.is(hooks.length, 4, hooks.map((hook) => hook.type).join());
  const [partial] = of('ORDER_PARTIALLY_CHARGEBACKED', short.orderId);
  t.deepEqual(partial!.data.trigger, { type: 'CHARGEBACK_APPLIED', chargeback: charged!.payment.chargeback });
  t.like(partial!.data.order, { status: 'FULFILLED', chargebackStatus: 'PARTIALLY_CHARGEBACKED' });
  const [paymentHook] = of('PAYMENT_CHARGEBACKED', full.orderId);
  t.like(paymentHook!.data.payment, { id: full.paymentId, status: 'SETTLED', chargebackStatus: 'CHARGEBACKED' });
  t.is(paymentHook!.data.trigger.type, 'CHARGEBACK_APPLIED');
  t.is(paymentHook!.data.trigger.chargeback.disputeId, 'dsp_full');
});

test('the staff trigger on a node without a chain answers 503 CHARGEBACKS_UNAVAILABLE; a bad body is 400, no token 401', async (t) => {
  const world = await webhookWorld(t);
  const { gateway } = world;
  const missing = await gateway.admin('POST', '/internal/v1/payments/pay_000000000000000000000000/chargebacks', { disputeId: 'dsp_1', amountUsdc: '1' });
  t.is(missing.status, 503, 'a node without a chain records no chargebacks');
  t.is(missing.body.errorCode, 'CHARGEBACKS_UNAVAILABLE');
  const invalid = await gateway.admin('POST', '/internal/v1/payments/pay_000000000000000000000000/chargebacks', { disputeId: '', amountUsdc: 'ten' });
  t.is(invalid.status, 400);
  const unauthorised = await gateway.request('POST', '/internal/v1/payments/pay_000000000000000000000000/chargebacks', {
    body: { disputeId: 'dsp_1', amountUsdc: '1' },
  });
  t.is(unauthorised.status, 401);
});

test('a chargeback of a bridged payment names its bridge as it stood when the order recorded it (bridgeOrSweepOverlap)', async (t) => {
  const world = await webhookWorld(t, { config: LIVE_NODE, environment: 'LIVE' });
  const { gateway, merchant } = world;
  const local = gateway.node.chain!.localChain!;
  const depositId = await protectedDeposit(local, 100_000_000n);
  const bridged = await settledPayment(gateway, merchant.liveKey, 'pay_chargebackbridged0000001', depositId, '4199990021', {
    destinationChainId: 42161,
    destinationToken: 'USDC',
  });
  const bridgeId = `brg_${bridged.paymentId}`;
  const bridgeStatus = async () =>
    ((await gateway.node.system.documents('bridge').findOne({ _id: bridgeId }))?.view as { status?: string } | undefined)?.status;
  await untilOnClock(gateway.clock, bridgeStatus, (status) => status !== undefined, 'the settlement’s bridge');
  await gateway.node.system.effectsIdle();
  const before = await bridgeStatus();

  const recorded = await gateway.admin('POST', `/internal/v1/payments/${bridged.paymentId}/chargebacks`, { disputeId: 'dsp_bridged', amountUsdc: '25' });
  t.is(recorded.status, 202, JSON.stringify(recorded.body));
  const charged = await untilOnClock(
    gateway.clock,
    () => paymentView(gateway, bridged.paymentId),
    (view) => view?.chargebackStatus === 'CHARGEBACKED',
    'the chargeback to reach the bridged payment',
  );
  t.is(await bridgeStatus(), before, 'the bridge stood still meanwhile');
  t.deepEqual(charged!.payment.chargeback!.bridgeOrSweepOverlap, { paymentBridgeId: bridgeId, status: before });
  const order = (await gateway.request('GET', `/api/v1/orders/${bridged.orderId}`)).body.responseObject.order;
  t.deepEqual(order.chargebacks, [charged!.payment.chargeback]);
});
