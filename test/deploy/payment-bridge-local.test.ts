/**
 * A live bridged order end to end on the embedded node (docs/bridges.md): an order delivered as
 * USDC on Arbitrum is paid on a crypto rail, its settlement releases the USDC to the platform's
 * bridge wallet (a relayer wallet) on the local chain standing in for Base, and the bridge sends
 * it once to the local provider's deposit address, which delivers it (on the local chain's
 * stand-in of Arbitrum USDC); PENDING, SUBMITTED, COMPLETED fire in order. With the provider set
 * to refund, each try's USDC comes back to the bridge wallet, and after the third the bridge is
 * FAILED and the USDC sent to the merchant's wallet on Base.
 */
import test, { type ExecutionContext } from 'ava';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BRIDGE_POLL_MS, RETRY_BASE_MS } from '../../machines/bridge/index.js';
import { TRANSFER_POLL_MS } from '../../machines/payment/index.js';
import { FIAT_RAILS } from '../../machines/rails.js';
import { parseUsdc } from '../../machines/money.js';
import { anvilTestAccount, LOCAL_RELAYER_INDEX } from '../../indexer/chain/index.js';
import { answerOf, placeOrder, recordEvents, usdcBalance, type PlacedOrder } from '../support/checkout.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { untilOnClock } from '../support/real-time-poll.js';

const RAIL = 'relay_42161';
const ARBITRUM = 42161;
const BRIDGE_WALLET = anvilTestAccount(LOCAL_RELAYER_INDEX).address;

async function bridgedCheckout(t: ExecutionContext) {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20 });
  t.teardown(() => gateway.stop());
  const events = await recordEvents(gateway);
  const merchantWallet = privateKeyToAccount(generatePrivateKey()).address;
  const merchant = await gateway.createMerchant({ name: 'Bridged', tier: 'BASE', evmWalletAddress: merchantWallet } as never);
  answerOf(await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { enabledRails: [...FIAT_RAILS, RAIL] }), 200, 'enabling the rails');
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const order = await placeOrder(gateway, merchant.liveKey, { requestedUsdcAmount: '25', destinationChainId: ARBITRUM, destinationAddress: recipient });
  return { gateway, events, order, merchantWallet, simulator: gateway.node.conversions.simulator! };
}

function until<T>(gateway: TestGateway, stepMs: number, read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  return untilOnClock(
    gateway.clock,
    async () => {
      const value = await read();
      if (!done(value)) await gateway.clock.advance(stepMs);
      return value;
    },
    done,
    what,
    { attempts: 600 },
  );
}

/** Pays the order's attempt on the crypto rail in full and waits for it to settle; answers the payment. */
async function payInFull(gateway: TestGateway, order: PlacedOrder, simulatorUrl: string) {
  const payment = answerOf(await order.customer('POST', '/payments', { rail: RAIL }), 201, 'the payment');
  const sent = await fetch(`${simulatorUrl}/_buyer/transfers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ depositAddress: payment.payTo, token: 'USDC', amount: payment.paymentAmount }),
  });
  if (sent.status !== 201) throw new Error(`the test wallet refused: ${await sent.text()}`);
  return until(
    gateway,
    TRANSFER_POLL_MS,
    async () => answerOf(await order.customer('GET', `/payments/${payment.id}`), 200, 'the payment read'),
    (read) => read.status === 'SETTLED',
    'the payment to settle',
  );
}

const bridgeView = async (gateway: TestGateway, paymentId: string) =>
  (await gateway.node.system.documents('bridge').findOne({ _id: `brg_${paymentId}` }))?.view as Record<string, any> | undefined;

const bridgeSends = async (gateway: TestGateway, bridgeId: string) =>
  (await gateway.node.system.documents('transaction').find({ _id: { $regex: `^bridge-(send|refund)-${bridgeId}` } })).map((doc) => doc._id as string).sort();

test('a live order to USDC on Arbitrum: the settlement lands in the bridge wallet, which sends it once to the provider; delivered, COMPLETED', async (t) => {
  t.timeout(180_000);
  const { gateway, events, order } = await bridgedCheckout(t);
  const walletBefore = await usdcBalance(gateway, BRIDGE_WALLET);
  const payment = await payInFull(gateway, order, gateway.node.conversions.simulator!.url);
  t.is(payment.quote.signalIntent.toAddress.toLowerCase(), BRIDGE_WALLET.toLowerCase(), 'the attempt releases to the bridge wallet');
  const bridgeId = `brg_${payment.id}`;
  const bridge = await until(
    gateway,
    BRIDGE_POLL_MS,
    () => bridgeView(gateway, payment.id),
    (view) => view?.status === 'COMPLETED',
    'the bridge to complete',
  );
  t.like(bridge, { status: 'COMPLETED', amountUsdc: payment.netSettledUsdcAmount, destinationChainId: String(ARBITRUM), attempts: 1, failureReason: null });
  t.regex(bridge!.sourceTransactionHash, /^0x[0-9a-f]{64}$/);
  t.truthy(bridge!.destinationTransactionHash);
  t.deepEqual(await bridgeSends(gateway, bridgeId), [`bridge-send-${bridgeId}-1`]);
  // Everything the settlement brought in went on to the provider: the wallet holds what it held before.
  t.is(await usdcBalance(gateway, BRIDGE_WALLET), walletBefore);
  t.deepEqual(await events.typesOf(bridgeId), ['PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_SUBMITTED', 'PAYMENT_BRIDGE_COMPLETED']);
  const hosted = answerOf(await gateway.request('GET', `/api/v1/orders/${order.id}`), 200, 'the hosted read');
  t.like(hosted.order.bridgeInfo, { id: bridgeId, status: 'COMPLETED' });
});

test('a live bridge the provider refunds three times is FAILED and its USDC sent to the merchant’s wallet on Base', async (t) => {
  t.timeout(240_000);
  const { gateway, events, order, merchantWallet, simulator } = await bridgedCheckout(t);
  simulator.setBridgeFaults({ refund: { feeUsdc: '0' } });
  const payment = await payInFull(gateway, order, simulator.url);
  const bridgeId = `brg_${payment.id}`;
  const bridge = await until(
    gateway,
    Math.min(BRIDGE_POLL_MS, RETRY_BASE_MS),
    () => bridgeView(gateway, payment.id),
    (view) => view?.status === 'FAILED' && view.refundTransactionHash !== null,
    'the bridge to fail and refund',
  );
  t.like(bridge, { status: 'FAILED', attempts: 3, refundAddress: merchantWallet, refundedAmountUsdc: payment.netSettledUsdcAmount });
  t.is(await usdcBalance(gateway, merchantWallet as `0x${string}`), parseUsdc(payment.netSettledUsdcAmount));
  t.deepEqual(await bridgeSends(gateway, bridgeId), [
    `bridge-refund-${bridgeId}`,
    `bridge-send-${bridgeId}-1`,
    `bridge-send-${bridgeId}-2`,
    `bridge-send-${bridgeId}-3`,
  ]);
  const types = await events.typesOf(bridgeId);
  t.is(types.at(-1), 'PAYMENT_BRIDGE_FAILED');
  t.is(types.filter((type) => type === 'PAYMENT_BRIDGE_SUBMITTED').length, 3);
});
