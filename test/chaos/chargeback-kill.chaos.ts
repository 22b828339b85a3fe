/**
 * A chargeback survives its node being SIGKILLed between the block that records it and its
 * delivery to the payment (docs/chargebacks.md): after the restart it counts once, and
 * PAYMENT_CHARGEBACKED and ORDER_CHARGEBACKED each fire once.
 *
 * The world is payment-kill.chaos.ts's (fulfil-kill-world.ts): the node a child process over a
 * durable DATA_DIR; anvil, the indexer, the attestation service and the JSON-RPC gate in this
 * process. Here the gate closes on the escrow's compensateChargeback, not on the fulfilment: a
 * live payment settles normally on a deposit with dispute protection and a stake behind it, then
 * staff charge it back through the admin API. The gate caps the indexer at the block before,
 * forwards the transaction (mined), answers its hash, and holds everything after; the test
 * SIGKILLs the node once the record is on chain. Its folder shows the payment SETTLED with no
 * chargeback; the cap is lifted, the indexer logs the fact, and the restarted node delivers it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { decodeFunctionData, parseEventLogs, parseTransaction, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { decode, EmbeddedStore, actorCollectionName } from '../../actors/index.js';
import { escrowAbi, type LocalChain } from '../../indexer/chain/index.js';
import { ChainFact } from '../../proto/gen/peer/indexer/v1/indexer.js';
import { BuyerSimulator, sealForPayment } from '../support/buyer-simulator.js';
import { protectedDeposit } from '../support/chargeback-world.js';
import { MAKER_PAYEE } from '../support/payment-flow.js';
import { PaymentNodeProcess } from './payment-node-process.js';
import { savedState, startFulfilKillWorld } from './fulfil-kill-world.js';
import { call, ok, until, within } from './http-polls.js';
import { placeVenmoAttempt } from './live-attempt.js';

const root = mkdtempSync(join(tmpdir(), 'peer-chargeback-kill-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

/** The node's compensateChargeback to the escrow. */
const isCompensation = (local: LocalChain) => (raw: Hex) => {
  try {
    const transaction = parseTransaction(raw);
    return (
      transaction.to?.toLowerCase() === local.escrow.toLowerCase() &&
      decodeFunctionData({ abi: escrowAbi, data: transaction.data! }).functionName === 'compensateChargeback'
    );
  } catch {
    return false;
  }
};

/** The chargebacks the payment and the order hold in the folder, read with no node running on it. */
async function savedChargebacks(dataDir: string, paymentId: string, orderId: string) {
  const store = await EmbeddedStore.open({ dataDir });
  try {
    const snapshot = async (kind: string, id: string) =>
      decode<{ context: Record<string, unknown> }>(
        (await (await store.collection({ name: actorCollectionName(kind), indexes: [] })).findOne({ _id: id }))!.snapshot,
      ).context;
    return {
      payment: (await snapshot('payment', paymentId)).chargeback as { disputeId: string } | null,
      order: (await snapshot('order', orderId)).chargebacks as Array<{ disputeId: string }>,
    };
  } finally {
    await store.close();
  }
}

test('a chargeback whose node is SIGKILLed after its record is mined, before it is delivered, counts once after the restart and each event fires once', async (t) => {
  t.timeout(90_000);
  const world = await startFulfilKillWorld(t, root, 'chargeback-kill', (local) => protectedDeposit(local, 100_000_000n), isCompensation);
  const { enclave, local, measurement, depositId, indexer, gate, cap: headCap, lift, collections, dataDir, events, nodes, logsOf } = world;
  const admin = { authorization: `Bearer ${world.adminToken}` };

  // Run 1: a live order paid and settled on the protected deposit.
  const first = await PaymentNodeProcess.start(1, world.environment(1), events);
  nodes.push(first);
  const merchant = ok(
    await call(first.url, 'POST', '/internal/v1/merchants', {
      headers: admin,
      body: { name: 'Chargeback Kill Test', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' },
    }),
    201,
    'the merchant',
  );
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const { orderId, customer, created, paymentId } = await placeVenmoAttempt(first.url, merchant.liveApiKey, {
    requestedUsdcAmount: '25',
    destinationAddress: destination,
  });
  t.is(created.quote.signalIntent.depositId, depositId.toString());
  const signalled = await until(
    'the intent to be signalled',
    async () => ok(await customer(first.url, 'GET', `/payments/${paymentId}`), 200, 'the payment read'),
    (payment) => payment.railIdentifier !== null,
    20_000,
    () => logsOf(1),
  );
  const intentHash = signalled.railIdentifier as Hex;
  const buyer = new BuyerSimulator(enclave.simulator!.url);
  const session = await buyer.signIn('venmo', 'chargeback-kill-buyer');
  const sent = await buyer.pay(session, {
    payee: signalled.payTo,
    amount: signalled.paymentAmount,
    currency: signalled.currency,
    note: signalled.suggestedMemo,
  });
  t.is(signalled.payTo, MAKER_PAYEE);
  const sealed = await sealForPayment(signalled.attestation.serviceUrl, { measurement, signer: enclave.service.signer }, session, {
    chainId: local.chainId,
    intentHash,
  });
  ok(await customer(first.url, 'POST', `/payments/${paymentId}/proof`, { encryptedSessionMaterial: sealed, params: sent.proofParams }), 202, 'the proof');
  await until(
    'the payment to settle',
    async () => ok(await customer(first.url, 'GET', `/payments/${paymentId}`), 200, 'the payment read'),
    (payment) => payment.status === 'SETTLED',
    30_000,
    () => logsOf(1),
  );

  // Staff charge it back: the gate caps the indexer, forwards compensateChargeback, answers its hash, and holds the rest.
  const compensated = ok(
    await call(first.url, 'POST', `/internal/v1/payments/${paymentId}/chargebacks`, {
      headers: admin,
      body: { disputeId: 'dsp_chaos_0001', amountUsdc: '25' },
    }),
    202,
    'the chargeback',
  );
  const closed = await within('the node to send compensateChargeback', gate.closed, 10_000, () => logsOf(1));
  t.is(closed.hash, compensated.transactionHash);
  const cap = headCap()!;
  const receipt = await local.publicClient.waitForTransactionReceipt({ hash: closed.hash, timeout: 10_000 });
  t.is(receipt.status, 'success');
  t.true(receipt.blockNumber > cap, 'the record is mined above the head the indexer sees');
  t.true(indexer.follower.cursor.number <= Number(cap));
  const killed = await first.kill();
  t.is(killed.signal, 'SIGKILL');

  const atKill = await savedState(dataDir, paymentId, orderId);
  t.is(atKill.payment.status, 'SETTLED');
  t.is(atKill.payment.chargebackStatus, 'NONE');
  t.like(atKill.order.order, { status: 'FULFILLED', chargebackStatus: 'NONE', chargebacks: [] });
  t.false(
    events.some((event) => event.type.includes('CHARGEBACK')),
    'nothing charged back before the kill',
  );

  // While the node is down the indexer logs the record.
  lift();
  const chargebackFacts = async () =>
    (await collections.facts.find({})).map((doc) => ChainFact.fromJSON(doc.fact)).filter((fact) => fact.event?.$case === 'chargebackCompensated');
  const [fact] = await until('the indexer to log ChargebackCompensated', chargebackFacts, (facts) => facts.length === 1, 10_000);
  t.is(fact!.transactionHash, closed.hash);
  gate.open();

  // Run 2: the same folder; the chain-facts reader resumes from its saved cursor and delivers the fact.
  const second = await PaymentNodeProcess.start(2, world.environment(2), events);
  nodes.push(second);
  const charged = await until(
    'the chargeback to reach the payment',
    async () => ok(await customer(second.url, 'GET', `/payments/${paymentId}`), 200, 'the payment read'),
    (payment) => payment.chargebackStatus === 'CHARGEBACKED',
    30_000,
    () => logsOf(2),
  );
  t.is(charged.status, 'SETTLED');
  t.like(charged.chargeback, { disputeId: 'dsp_chaos_0001', compensatedUsdcAmount: '25', disputeTxHash: closed.hash, intentHash });
  const hosted = await until(
    'the order to show it',
    async () => ok(await call(second.url, 'GET', `/api/v1/orders/${orderId}`), 200, 'the hosted read'),
    (read) => read.order.chargebackStatus === 'CHARGEBACKED',
  );
  t.is(hosted.order.status, 'FULFILLED');
  t.deepEqual(hosted.order.chargebacks, [charged.chargeback]);

  const ours = () => events.filter((event) => event.actor.id === paymentId || event.actor.id === orderId);
  await until(
    'the chargeback events on the bus',
    async () => ours().map((event) => event.type),
    (types) => types.includes('PAYMENT_CHARGEBACKED') && types.includes('ORDER_CHARGEBACKED'),
    10_000,
  );
  const stopped = await second.stop();
  t.deepEqual(stopped, { code: 0, signal: null }, second.stderr);

  // Counted once: one fact on the payment and on the order, one record on chain, each event published once, by the restarted node.
  const after = await savedChargebacks(dataDir, paymentId, orderId);
  t.is(after.payment?.disputeId, 'dsp_chaos_0001');
  t.deepEqual(
    after.order.map((chargeback) => chargeback.disputeId),
    ['dsp_chaos_0001'],
  );
  const records = await local.publicClient.getContractEvents({ address: local.escrow, abi: escrowAbi, eventName: 'ChargebackCompensated', fromBlock: 0n });
  t.deepEqual(
    records.map((log) => log.transactionHash),
    [closed.hash],
  );
  t.is(parseEventLogs({ abi: escrowAbi, logs: receipt.logs, eventName: 'ChargebackCompensated' })[0]?.args.compensatedAmount, 25_000_000n);
  for (const type of ['PAYMENT_CHARGEBACKED', 'ORDER_CHARGEBACKED']) {
    t.deepEqual(
      [
        ...new Map(
          ours()
            .filter((event) => event.type === type)
            .map((event) => [event.id, event]),
        ).values(),
      ].map((event) => event.run),
      [2],
      `${type} published once, by the restarted node`,
    );
  }
  t.false(
    ours().some((event) => event.type === 'ORDER_PARTIALLY_CHARGEBACKED'),
    'the whole of what settled was compensated',
  );
});
