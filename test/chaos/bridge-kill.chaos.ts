/**
 * A live bridge survives its node being SIGKILLed after the bridge wallet's send is mined and
 * before the bridge learns of it (docs/bridges.md): after the restart on the same folder the
 * bridge does not send again, is COMPLETED, the USDC moved once (out of the bridge wallet, into
 * the provider's deposit address, delivered to the recipient) and PENDING, SUBMITTED and
 * COMPLETED are each published once.
 *
 * The world is payment-kill.chaos.ts's (fulfil-kill-world.ts), plus the local conversion
 * provider in this process (CONVERSION_PROVIDER_URL), which bridges out of the local chain
 * standing in for Base and, for USDC on Arbitrum, delivers the local USDC itself. A live order to
 * Arbitrum is paid on venmo and settles normally, releasing its USDC to the bridge wallet (the
 * relayer's). The gate closes on that wallet's USDC transfer, the bridge's only send: forwarded,
 * mined, its hash answered, then every call held, so the relayer never reads the receipt and the
 * bridge stays PENDING. The node is killed once it asks for that receipt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { decodeFunctionData, erc20Abi, parseTransaction, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { actorCollectionName, createLogger, decode, EmbeddedStore } from '../../actors/index.js';
import { ConversionSimulator } from '../../deploy/conversion-simulator/index.js';
import type { LocalChain } from '../../indexer/chain/index.js';
import { parseUsdc } from '../../machines/money.js';
import { BuyerSimulator, sealForPayment } from '../support/buyer-simulator.js';
import { venmoDeposit } from '../support/payment-flow.js';
import { call, ok, until, within } from './http-polls.js';
import { placeVenmoAttempt } from './live-attempt.js';
import { PaymentNodeProcess } from './payment-node-process.js';
import { RELAYER, startFulfilKillWorld } from './fulfil-kill-world.js';

const ARBITRUM = 42161;
const BRIDGE_TYPES = ['PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_SUBMITTED', 'PAYMENT_BRIDGE_COMPLETED'];

const root = mkdtempSync(join(tmpdir(), 'peer-bridge-kill-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

/** A USDC transfer: the only one the node sends is the bridge wallet's send to the provider. */
const isUsdcTransfer = (local: LocalChain) => (raw: Hex) => {
  try {
    const transaction = parseTransaction(raw);
    return (
      transaction.to?.toLowerCase() === local.usdc.toLowerCase() && decodeFunctionData({ abi: erc20Abi, data: transaction.data! }).functionName === 'transfer'
    );
  } catch {
    return false;
  }
};

/** The bridge and the relayer's bridge transactions in the folder, read with no node running on it. */
async function savedBridge(dataDir: string, bridgeId: string) {
  const store = await EmbeddedStore.open({ dataDir });
  try {
    const actors = async (kind: string) => store.collection({ name: actorCollectionName(kind), indexes: [] });
    const bridge = (await (await actors('bridge')).findOne({ _id: bridgeId }))!;
    const transactions = (await (await actors('transaction')).find({})).filter((doc) => String(doc._id).startsWith(`bridge-`));
    const context = decode<{ context: { attempts: Array<{ depositAddress: string | null }> } }>(bridge.snapshot).context;
    return {
      bridge: bridge.view as any,
      depositAddress: context.attempts[0]?.depositAddress as Address | undefined,
      transactions: transactions.map((doc) => ({ id: String(doc._id), view: doc.view as any })).sort((a, b) => a.id.localeCompare(b.id)),
    };
  } finally {
    await store.close();
  }
}

test('a live bridge whose node is SIGKILLed after its send is mined, before it learns of it, sends once and COMPLETES once after the restart', async (t) => {
  t.timeout(150_000);
  const world = await startFulfilKillWorld(t, root, 'bridge-kill', venmoDeposit, isUsdcTransfer);
  const { enclave, local, measurement, gate, lift, dataDir, events, nodes, logsOf } = world;
  const provider = await ConversionSimulator.start({ chain: local, now: () => Date.now(), logger: createLogger({ level: 'silent' }), pollMs: 50 });
  t.teardown(() => provider.stop());
  const environment = (run: number) => ({ ...world.environment(run), CONVERSION_PROVIDER_URL: provider.url });
  const balanceOf = (address: Address) => local.publicClient.readContract({ address: local.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
  const usdcTransfers = (args: { from?: Address; to?: Address }) =>
    local.publicClient.getLogs({
      address: local.usdc,
      event: erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer')!,
      args,
      fromBlock: local.deployBlock,
      toBlock: 'latest',
    });

  // Run 1: a live order to USDC on Arbitrum, paid on venmo and settled into the bridge wallet.
  const first = await PaymentNodeProcess.start(1, environment(1), events, 60_000);
  nodes.push(first);
  const merchant = ok(
    await call(first.url, 'POST', '/internal/v1/merchants', {
      headers: { authorization: `Bearer ${world.adminToken}` },
      body: { name: 'Bridge Kill Test', tier: 'BASE', evmWalletAddress: privateKeyToAccount(generatePrivateKey()).address },
    }),
    201,
    'the merchant',
  );
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  const { orderId, customer, created, paymentId } = await placeVenmoAttempt(first.url, merchant.liveApiKey, {
    requestedUsdcAmount: '25',
    destinationChainId: ARBITRUM,
    destinationAddress: recipient,
  });
  const bridgeId = `brg_${paymentId}`;
  t.is(created.quote.signalIntent.toAddress.toLowerCase(), RELAYER.address.toLowerCase(), 'the attempt releases to the bridge wallet');
  const signalled = await until(
    'the intent to be signalled',
    async () => ok(await customer(first.url, 'GET', `/payments/${paymentId}`), 200, 'the payment read'),
    (payment) => payment.railIdentifier !== null,
    20_000,
    () => logsOf(1),
  );
  // The bridge wallet holds other money too, as a live one holds other bridges' USDC: a second send would not revert, only the counts show it.
  await local.mintUsdc(RELAYER.address, 1_000_000_000n);
  const walletBefore = await balanceOf(RELAYER.address);
  const buyer = new BuyerSimulator(enclave.simulator!.url);
  const session = await buyer.signIn('venmo', 'bridge-kill-buyer');
  const sent = await buyer.pay(session, {
    payee: signalled.payTo,
    amount: signalled.paymentAmount,
    currency: signalled.currency,
    note: signalled.suggestedMemo,
  });
  const sealed = await sealForPayment(signalled.attestation.serviceUrl, { measurement, signer: enclave.service.signer }, session, {
    chainId: local.chainId,
    intentHash: signalled.railIdentifier as Hex,
  });
  ok(await customer(first.url, 'POST', `/payments/${paymentId}/proof`, { encryptedSessionMaterial: sealed, params: sent.proofParams }), 202, 'the proof');

  // The payment settles, the bridge quotes and sends: the gate forwards the transfer, answers its hash, and holds the rest.
  const closed = await within('the bridge wallet’s send', gate.closed, 60_000, () => logsOf(1));
  const receipt = await local.publicClient.waitForTransactionReceipt({ hash: closed.hash, timeout: 10_000 });
  t.is(receipt.status, 'success');
  await until(
    'the node to ask for the send’s receipt',
    async () => gate.held.some((held) => held.method === 'eth_getTransactionReceipt' && String(held.params[0]).toLowerCase() === closed.hash),
    (asked) => asked,
    10_000,
    () => logsOf(1),
  );
  t.like(await first.kill(), { signal: 'SIGKILL' });

  // What the killed node had saved: the bridge PENDING on its first try, its send without an outcome.
  const atKill = await savedBridge(dataDir, bridgeId);
  t.like(atKill.bridge, { status: 'PENDING', attempts: 1, sourceTransactionHash: null, submittedAt: null });
  t.deepEqual(
    atKill.transactions.map((transaction) => transaction.id),
    [`bridge-send-${bridgeId}-1`],
  );
  t.falsy(atKill.transactions[0]!.view.outcome, 'the relayer had not read the receipt');
  const net = parseUsdc(atKill.bridge.amountUsdc);
  t.true(net > 0n);
  t.deepEqual(
    events.filter((event) => event.actor.id === bridgeId).map((event) => event.type),
    ['PAYMENT_BRIDGE_PENDING'],
    'nothing past PENDING before the kill',
  );

  // Run 2: the same folder; the relayer reads the receipt of the send made before the kill, the bridge goes on.
  lift();
  gate.open();
  const second = await PaymentNodeProcess.start(2, environment(2), events, 60_000);
  nodes.push(second);
  const hosted = await until(
    'the bridge to complete after the restart',
    async () => ok(await call(second.url, 'GET', `/api/v1/orders/${orderId}`), 200, 'the hosted read'),
    (read) => read.order.bridgeInfo?.status === 'COMPLETED',
    90_000,
    () => logsOf(2),
  );
  t.like(hosted.order.bridgeInfo, { id: bridgeId, status: 'COMPLETED', attempts: 1, sourceTransactionHash: closed.hash, failureReason: null });
  await until(
    'the bridge events on the bus',
    async () => events.filter((event) => event.actor.id === bridgeId).map((event) => event.type),
    (types) => types.includes('PAYMENT_BRIDGE_COMPLETED'),
    10_000,
  );
  t.deepEqual(await second.stop(), { code: 0, signal: null }, second.stderr);

  // Sent once: one relayer transaction for the try, one transfer out of the bridge wallet, one into the deposit address.
  const after = await savedBridge(dataDir, bridgeId);
  t.deepEqual(
    after.transactions.map((transaction) => transaction.id),
    [`bridge-send-${bridgeId}-1`],
  );
  t.is(after.transactions[0]!.view.outcome?.hash, closed.hash);
  const outOfWallet = await usdcTransfers({ from: RELAYER.address });
  t.deepEqual(
    outOfWallet.map((log) => [log.transactionHash, log.args.to, log.args.value]),
    [[closed.hash, after.depositAddress, net]],
    'one send out of the bridge wallet, to the deposit address, of the net amount',
  );
  t.is((await usdcTransfers({ to: after.depositAddress! })).length, 1, 'the provider received one deposit');
  // Moved once: the bridge wallet holds what it held before the settlement, the recipient what was delivered.
  t.is(await balanceOf(RELAYER.address), walletBefore);
  const delivered = await balanceOf(recipient);
  t.true(delivered > 0n && delivered <= net);
  t.is(parseUsdc(after.bridge.deliveredAmount), delivered, 'what the bridge reports delivered');
  t.is((await usdcTransfers({ to: recipient })).length, 1, 'one delivery to the recipient');

  // Each status announced once (the tap may see a redelivery after the kill: the same event id), PENDING by the killed node.
  const published = (type: string) => [
    ...new Map(events.filter((event) => event.actor.id === bridgeId && event.type === type).map((event) => [event.id, event.run])).values(),
  ];
  t.deepEqual(
    BRIDGE_TYPES.map((type) => published(type)),
    [[1], [2], [2]],
  );
  t.false(
    events.some((event) => event.actor.id === bridgeId && (event.type === 'PAYMENT_BRIDGE_FAILED' || event.type === 'PAYMENT_BRIDGE_REFUNDED')),
    'no try failed',
  );
});
