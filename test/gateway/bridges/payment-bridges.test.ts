/**
 * Bridged destinations through HTTP (docs/bridges.md): a sandbox order delivered as USDC on
 * Arbitrum is paid, its settlement starts one bridge, PAYMENT_BRIDGE_* fire in order and are
 * listed by order and payment, and the hosted read shows the bridge; a bridge the simulated
 * provider keeps refunding is tried three times on the test clock, then refunded to the
 * merchant's Base wallet; what no bridge can deliver is refused at creation, naming the field.
 */
import test from 'ava';
import type { SimulatedBridgeRail } from '../../../actors/bridges/index.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';
import { advance, hostedRead, placeOrder, recordEvents, startPayment } from '../../support/checkout.js';
import { listEvents } from '../../support/merchant-events.js';
import { orderKind } from '../../../actors/kinds/index.js';
import { restore } from '../../../actors/runtime/turn.js';
import type { OrderContext } from '../../../machines/order/index.js';

const ARBITRUM = 42161;
const ARBITRUM_USDC = '0xaf88d065e77c8cC2239327C5EDb3A432268e5831';
const ARBITRUM_USDT = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';
const MERCHANT_WALLET = '0x1111111111111111111111111111111111111111';

async function sandbox(t: { teardown(fn: () => Promise<void>): void }) {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const merchant = await gateway.createMerchant();
  return { gateway, ...merchant, rail: gateway.node.bridgeRails.SANDBOX as SimulatedBridgeRail };
}

/** Pays the order in the sandbox and waits for the bridge its settlement starts, if any, to stop moving. */
async function payOrder(gateway: TestGateway, order: Awaited<ReturnType<typeof placeOrder>>) {
  const payment = await startPayment(order);
  const settled = await order.customer('POST', `/payments/${payment.id}/simulate`);
  if (settled.status !== 200) throw new Error(`simulate failed: ${JSON.stringify(settled.body)}`);
  await gateway.node.system.effectsIdle();
  return settled.body.responseObject;
}

async function bridgeOf(gateway: TestGateway, paymentId: string) {
  for (let round = 0; round < 200; round++) {
    const doc = await gateway.node.system.documents('bridge').findOne({ _id: `brg_${paymentId}` });
    if (doc) {
      await gateway.node.system.effectsIdle();
      return (await gateway.node.system.documents('bridge').findOne({ _id: `brg_${paymentId}` }))!;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return null;
}

test('a sandbox order to USDC on Arbitrum is paid, bridged once, and PENDING, SUBMITTED, COMPLETED fire in order, listed by order and payment', async (t) => {
  const { gateway, sandboxKey, rail } = await sandbox(t);
  const recorder = await recordEvents(gateway);
  const order = await placeOrder(gateway, sandboxKey, { requestedUsdcAmount: '25', destinationChainId: ARBITRUM, destinationToken: 'USDC' });
  const payment = await payOrder(gateway, order);
  t.is(payment.status, 'SETTLED');
  const bridge = await bridgeOf(gateway, payment.id);
  t.truthy(bridge, 'the settlement started a bridge');

  const bridgeId = `brg_${payment.id}`;
  const events = await recorder.of(bridgeId);
  t.deepEqual(
    events.map((event) => event.type),
    ['PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_SUBMITTED', 'PAYMENT_BRIDGE_COMPLETED'],
  );
  const completed = events[2]!.data.paymentBridge as Record<string, unknown>;
  t.like(completed, {
    id: bridgeId,
    paymentId: payment.id,
    orderId: order.id,
    status: 'COMPLETED',
    sourceChainId: '8453',
    destinationChainId: String(ARBITRUM),
    destinationToken: ARBITRUM_USDC,
    amountUsdc: payment.netSettledUsdcAmount,
    deliveredAmount: payment.netSettledUsdcAmount,
    attempts: 1,
    providerRequestId: `sim_${bridgeId}_1`,
    failureReason: null,
  });
  t.regex(String(completed.destinationTransactionHash), /^0x[0-9a-f]{64}$/);
  t.is([...rail.sends.keys()].filter((id) => id.includes(bridgeId)).length, 1, 'the USDC was sent to the provider once');

  const hosted = await hostedRead(gateway, order.id);
  t.like(hosted.order.bridgeInfo, { id: bridgeId, status: 'COMPLETED', paymentId: payment.id });

  // The settlement delivered again (a redelivery of PAYMENT_SETTLED) makes no second bridge.
  const settledEvent = (await recorder.of(payment.id)).find((event) => event.type === 'PAYMENT_SETTLED')!;
  await gateway.node.bus.publish({ ...settledEvent, id: `${settledEvent.id}:again` });
  await gateway.node.system.effectsIdle();
  t.deepEqual(await recorder.typesOf(bridgeId), ['PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_SUBMITTED', 'PAYMENT_BRIDGE_COMPLETED']);

  const listedTypes = async (query: string) => {
    for (let round = 0; round < 200; round++) {
      const listed = await listEvents(gateway, sandboxKey, query);
      if (listed.total >= 3) return listed.events.map((event) => event.type);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return [];
  };
  t.deepEqual(await listedTypes(`paymentId=${payment.id}&type=PAYMENT_BRIDGE_PENDING&type=PAYMENT_BRIDGE_SUBMITTED&type=PAYMENT_BRIDGE_COMPLETED`), [
    'PAYMENT_BRIDGE_COMPLETED',
    'PAYMENT_BRIDGE_SUBMITTED',
    'PAYMENT_BRIDGE_PENDING',
  ]);
  const byOrder = await listEvents(gateway, sandboxKey, `orderId=${order.id}&type=PAYMENT_BRIDGE_COMPLETED`);
  t.is(byOrder.total, 1);
  t.like(byOrder.events[0].data, { order: { id: order.id }, paymentBridge: { id: bridgeId, status: 'COMPLETED' } });

  // The bridge told its order each status it entered: a chargeback of the payment now names it (docs/chargebacks.md).
  const orderDoc = await gateway.node.system.documents('order').findOne({ _id: order.id });
  t.deepEqual(
    (restore(orderKind, orderDoc!).context as OrderContext).bridges.map(({ paymentId, paymentBridgeId, status }) => ({ paymentId, paymentBridgeId, status })),
    [{ paymentId: payment.id, paymentBridgeId: bridgeId, status: 'COMPLETED' }],
  );
});

test('an order delivered on Base is settled there and starts no bridge', async (t) => {
  const { gateway, sandboxKey } = await sandbox(t);
  const order = await placeOrder(gateway, sandboxKey);
  const payment = await payOrder(gateway, order);
  await new Promise((resolve) => setTimeout(resolve, 100));
  t.is(await gateway.node.system.documents('bridge').findOne({ _id: `brg_${payment.id}` }), null);
  t.is((await hostedRead(gateway, order.id)).order.bridgeInfo, null);
});

test('a bridge the provider keeps refunding is tried three times with backoff on the test clock, then FAILED and refunded to the merchant’s Base wallet', async (t) => {
  const { gateway, sandboxKey, rail } = await sandbox(t);
  const recorder = await recordEvents(gateway);
  rail.failNext(3, 'no liquidity on the route');
  const order = await placeOrder(gateway, sandboxKey, { requestedUsdcAmount: '25', destinationChainId: ARBITRUM });
  const payment = await payOrder(gateway, order);
  const bridgeId = `brg_${payment.id}`;
  await bridgeOf(gateway, payment.id);
  t.deepEqual(await recorder.typesOf(bridgeId), ['PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_SUBMITTED']);
  t.like((await hostedRead(gateway, order.id)).order.bridgeInfo, { status: 'PENDING', attempts: 1, failureReason: 'no liquidity on the route' });

  // The second try waits a minute: nothing happens a second before it.
  await advance(gateway, 59_000);
  t.is((await recorder.typesOf(bridgeId)).length, 2);
  await advance(gateway, 1_000);
  t.is((await recorder.typesOf(bridgeId)).length, 4);
  await advance(gateway, 120_000);
  t.deepEqual(await recorder.typesOf(bridgeId), [
    'PAYMENT_BRIDGE_PENDING',
    'PAYMENT_BRIDGE_SUBMITTED',
    'PAYMENT_BRIDGE_PENDING',
    'PAYMENT_BRIDGE_SUBMITTED',
    'PAYMENT_BRIDGE_PENDING',
    'PAYMENT_BRIDGE_SUBMITTED',
    'PAYMENT_BRIDGE_FAILED',
  ]);
  const failed = (await recorder.of(bridgeId)).at(-1)!.data.paymentBridge;
  t.like(failed, {
    status: 'FAILED',
    attempts: 3,
    failureReason: 'no liquidity on the route',
    refundAddress: MERCHANT_WALLET,
    refundedAmountUsdc: payment.netSettledUsdcAmount,
  });

  const info = (await hostedRead(gateway, order.id)).order.bridgeInfo;
  t.like(info, { status: 'FAILED', refundAddress: MERCHANT_WALLET });
  t.regex(info.refundTransactionHash, /^0x[0-9a-f]{64}$/);
  const sends = [...rail.sends.entries()].filter(([id]) => id.includes(bridgeId));
  t.deepEqual(
    sends.map(([id, send]) => [id, send.to === MERCHANT_WALLET]),
    [
      [`bridge-send-${bridgeId}-1`, false],
      [`bridge-send-${bridgeId}-2`, false],
      [`bridge-send-${bridgeId}-3`, false],
      [`bridge-refund-${bridgeId}`, true],
    ],
  );
});

test('what no bridge can deliver is refused at creation with 400 naming the field, and no order is made', async (t) => {
  const { gateway, sandboxKey, liveKey } = await sandbox(t);
  const refused = async (key: string, body: Record<string, unknown>, field: string, pattern: RegExp) => {
    const answer = await gateway.request('POST', '/api/v1/orders', { key, body: { requestedUsdcAmount: '5', ...body } });
    t.is(answer.status, 400, JSON.stringify(body));
    t.regex(String(answer.body.responseObject.fieldErrors[field]?.[0]), pattern);
  };
  await refused(sandboxKey, { destinationChainId: ARBITRUM, destinationToken: ARBITRUM_USDT }, 'destinationToken', /not a supported token on chain 42161/);
  await refused(sandboxKey, { destinationChainId: 999 }, 'destinationChainId', /chain 999 is not supported/);
  await refused(liveKey, { destinationChainId: ARBITRUM }, 'destinationChainId', /runs for sandbox orders only/);

  const solanaOnly = await gateway.createMerchant({ name: 'Sol', tier: 'BASE', solanaWalletAddress: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' } as never);
  await refused(solanaOnly.sandboxKey, { destinationChainId: 792703809 }, 'destinationChainId', /set evmWalletAddress first/);
  t.is((await gateway.request('GET', '/api/v1/merchants/me/orders', { key: sandboxKey })).body.responseObject.total, 0);
});
