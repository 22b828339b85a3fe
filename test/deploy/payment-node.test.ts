/**
 * A payment end to end on the embedded node, driven through the payment actor as the
 * checkout endpoints will drive it: the intent signalled on the maker's deposit through
 * the relayer, the buyer's Venmo payment in the simulator, the proof sealed to the
 * enclave and verified there, fulfilIntent mined, IntentFulfilled indexed, and the
 * payment SETTLED from that fact, the order FULFILLED, the USDC at the destination.
 */
import test from 'ava';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mockUSDCAbi } from '../../indexer/chain/index.js';
import { sealSessionMaterial } from '../../enclave/index.js';
import type { DomainEvent } from '../../actors/index.js';
import type { PaymentView } from '../../actors/kinds/payment-kind.js';
import type { OrderView } from '../../actors/kinds/order-kind.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { untilOnClock } from '../support/real-time-poll.js';
import { MAKER_PAYEE, attemptInput, venmoDeposit } from '../support/payment-flow.js';

async function order(gateway: TestGateway, key: string, destination: string) {
  const created = await gateway.request('POST', '/api/v1/orders', { key, body: { requestedUsdcAmount: '25', destinationAddress: destination } });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  return created.body.responseObject.order as { id: string; merchantId: string };
}

/** A 25 USDC attempt on the order as the gateway would create it: live on `depositId`, or a sandbox one. */
async function startAttempt(
  gateway: TestGateway,
  id: string,
  placed: { id: string; merchantId: string },
  destination: `0x${string}`,
  depositId: bigint | 'sandbox',
) {
  const { node } = gateway;
  const input = attemptInput({
    id,
    orderId: placed.id,
    merchantId: placed.merchantId,
    owedUsdc: 25_000_000n,
    destination,
    depositId,
    chain: depositId === 'sandbox' ? null : node.payments.chain,
    fees: node.payments.fees,
    at: new Date(gateway.clock.now()).toISOString(),
  });
  await node.system.askAt({ kind: 'payment', id }, { type: 'CREATE', ...input });
  return input;
}

const paymentOf = async (gateway: TestGateway, id: string) =>
  (await gateway.node.system.documents('payment').findOne({ _id: id }))?.view as unknown as PaymentView;
const orderOf = async (gateway: TestGateway, id: string) => (await gateway.node.system.documents('order').findOne({ _id: id }))?.view as unknown as OrderView;

test('a live Venmo payment: signalled, paid in the simulator, proven, fulfilled on chain, and settled from the indexed fact', async (t) => {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true, INDEXER_POLL_MS: 20 });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  const local = node.chain!.localChain!;
  const events: DomainEvent[] = [];
  await node.bus.consume({ durable: 'test-events' }, async (event) => void events.push(event));

  const depositId = await venmoDeposit(local);
  const { liveKey } = await gateway.createMerchant();
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const placed = await order(gateway, liveKey, destination);
  const input = await startAttempt(gateway, 'pay_live1', placed, destination, depositId);

  const awaiting = await untilOnClock(
    gateway.clock,
    () => paymentOf(gateway, input.id),
    (view) => view.step === 'AWAITING_PAYMENT',
    'the intent to be signalled',
  );
  const intentHash = awaiting.payment.railIdentifier as `0x${string}`;
  t.regex(intentHash, /^0x[0-9a-f]{64}$/);
  t.is(awaiting.payment.quote.intentHash, intentHash);
  t.is((await orderOf(gateway, placed.id)).hasActivePayment, true);

  // The buyer pays the maker from their own Venmo, the exact amount the checkout asked for.
  const simulator = node.enclave!.simulator!;
  const material = simulator.openSession('venmo', { id: '7000111', username: 'buyer' });
  const block = await local.publicClient.getBlock();
  simulator.recordPayment('venmo', material, {
    paymentId: '4199990011',
    amount: input.paymentAmountCents,
    currency: 'USD',
    payee: MAKER_PAYEE,
    timestampMs: Number(block.timestamp) * 1000 + 60_000,
    status: 'completed',
  });
  const sealed = await sealSessionMaterial(node.enclave!.service.attestationDocument(), material, {
    purpose: 'payment',
    platform: 'venmo',
    chainId: local.chainId,
    intentHash,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
  });
  await node.system.askAt(
    { kind: 'payment', id: input.id },
    {
      type: 'SUBMIT_PROOF',
      proof: { encryptedSessionMaterial: sealed, params: { PAYMENT_ID: '4199990011' } },
      at: new Date(gateway.clock.now()).toISOString(),
    },
  );

  const settled = await untilOnClock(
    gateway.clock,
    () => paymentOf(gateway, input.id),
    (view) => view.status === 'SETTLED',
    'the payment to settle',
  );
  const net = input.price.netUsdc;
  t.is(settled.payment.netSettledUsdcAmount, (Number(net) / 1e6).toString());
  t.regex(settled.payment.fulfillTransaction!, /^0x[0-9a-f]{64}$/);
  const receipt = await local.publicClient.getTransactionReceipt({ hash: settled.payment.fulfillTransaction as `0x${string}` });
  t.is(receipt.status, 'success');
  t.is(await local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [destination] }), net);

  const fulfilled = await untilOnClock(
    gateway.clock,
    () => orderOf(gateway, placed.id),
    (view) => view.status === 'FULFILLED',
    'the order to be fulfilled',
  );
  t.is(fulfilled.order.remainingUsdcAmount, '0');
  t.is(fulfilled.hasActivePayment, false);
  t.is(fulfilled.hosted.amountLock, 'PAID');
  await node.system.effectsIdle();
  const types = events.filter((event) => [placed.id, input.id].includes(event.actor.id)).map((event) => event.type);
  t.deepEqual(types, ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED']);
});

test('a sandbox payment settles when simulated, fires the same events, and never calls the attestation service', async (t) => {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, ENCLAVE_ENABLED: true });
  t.teardown(() => gateway.stop());
  const { node } = gateway;
  const calls: string[] = [];
  for (const method of ['verifyPayment', 'verifyPaymentProof', 'registerIdentity', 'verifyDispute'] as const) {
    const original = node.enclaveClient![method].bind(node.enclaveClient);
    (node.enclaveClient as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      calls.push(method);
      return (original as (...a: unknown[]) => unknown)(...args);
    };
  }
  const events: DomainEvent[] = [];
  await node.bus.consume({ durable: 'test-events' }, async (event) => void events.push(event));
  const { sandboxKey } = await gateway.createMerchant();
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const placed = await order(gateway, sandboxKey, destination);
  const input = await startAttempt(gateway, 'pay_sandbox1', placed, destination, 'sandbox');
  await node.system.askAt({ kind: 'payment', id: input.id }, { type: 'SIMULATE_PAYMENT', at: new Date(gateway.clock.now()).toISOString() });
  await node.system.effectsIdle();

  const payment = await paymentOf(gateway, input.id);
  t.is(payment.status, 'SETTLED');
  t.regex(payment.payment.fulfillTransaction!, /^sim_/);
  t.is((await orderOf(gateway, placed.id)).status, 'FULFILLED');
  t.deepEqual(
    events.filter((event) => [placed.id, input.id].includes(event.actor.id)).map((event) => event.type),
    ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED'],
  );
  t.deepEqual(calls, []);
  t.is(
    [...node.enclave!.simulator!.requests.values()].reduce((sum, count) => sum + count, 0),
    0,
  );
});
