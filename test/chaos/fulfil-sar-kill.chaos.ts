/**
 * A fulfil-from-receipt action (fulfill-sar) survives its node being SIGKILLed between the
 * fulfilment transaction being mined and the payment learning of it: after the restart the
 * action ends SUCCEEDED once, and the payment settles once.
 *
 * The world is payment-kill.chaos.ts's (fulfil-kill-world.ts): the node a child process over a durable DATA_DIR;
 * anvil, the indexer, the attestation service (with its platform simulator) and the JSON-RPC
 * gate in this process. What differs is how the fulfilment is reached: the maker's deposit
 * offers automated release and the maker's Venmo session is kept with the attestation service;
 * the customer pays without proving it; the PRO merchant posts fulfill-sar with the receipt id,
 * the action runs at once, the payment has the id read on the seller path and sends
 * fulfillIntent. The gate caps the indexer, forwards it, answers, and holds the rest; the test
 * SIGKILLs the node once it asked for the receipt. Its folder shows the action RUNNING and the
 * payment FULFILLING; after the restart the settlement fact settles the payment and the payment
 * tells the action, with the transaction mined before the kill.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { keccak256, parseEventLogs, toBytes, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { sealSessionMaterial } from '../../enclave/index.js';
import { escrowAbi, orchestratorAbi, type LocalChain } from '../../indexer/chain/index.js';
import { parseFiat, parseUsdc } from '../../machines/money.js';
import { MAKER, MAKER_PAYEE, venmoDeposit } from '../support/payment-flow.js';
import { PaymentNodeProcess } from './payment-node-process.js';
import { RELAYER, savedState, startFulfilKillWorld } from './fulfil-kill-world.js';
import { call, ok, until, within } from './http-polls.js';
import { placeVenmoAttempt } from './live-attempt.js';

const RECEIPT_ID = '4199990321';

const root = mkdtempSync(join(tmpdir(), 'peer-fulfil-sar-kill-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

/** A maker's Venmo deposit that offers automated release: quoted with it, an attempt can be fulfilled from its receipt id. */
async function releasingDeposit(local: LocalChain): Promise<bigint> {
  const depositId = await venmoDeposit(local);
  await local.confirm(
    await local.walletFor(MAKER).writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setSellerAutomatedRelease', args: [depositId, true] }),
  );
  return depositId;
}

test('a fulfill-sar action whose node is SIGKILLed after its fulfilment is mined, before it learns of it, succeeds once after the restart', async (t) => {
  t.timeout(60_000);
  const started = Date.now();
  const world = await startFulfilKillWorld(t, root, 'fulfil-sar-kill', releasingDeposit);
  const { enclave, local, sentAtDeploy, depositId, indexer, gate, cap: headCap, lift, fulfilledFacts, dataDir, events, nodes, logsOf } = world;
  const simulator = enclave.simulator!;

  // The maker's Venmo session, kept with the attestation service for the seller path.
  const makerSession = simulator.openSession('venmo', { id: MAKER_PAYEE, username: 'maker' });
  {
    const owner = privateKeyToAccount(generatePrivateKey());
    const now = Math.floor(Date.now() / 1000);
    const sealed = await sealSessionMaterial(enclave.service.attestationDocument(), makerSession, {
      purpose: 'seller',
      platform: 'venmo',
      callerAddress: owner.address,
      expiresAt: now + 600,
    });
    await enclave.service.uploadSellerCredential('venmo', {
      encryptedSessionMaterial: sealed,
      callerAddress: owner.address,
      payeeDetails: keccak256(toBytes(MAKER_PAYEE)),
      // The sealed envelope lives minutes; the credential it carries, as long as the platform's session.
      expiresAt: now + 7 * 86_400,
    });
  }

  // Run 1: a PRO merchant's live order, a payment quoted against the deposit and signalled.
  const first = await PaymentNodeProcess.start(1, world.environment(1), events);
  nodes.push(first);
  const merchant = ok(
    await call(first.url, 'POST', '/internal/v1/merchants', {
      headers: { authorization: `Bearer ${world.adminToken}` },
      body: { name: 'Sar Kill Test', tier: 'PRO', evmWalletAddress: '0x1111111111111111111111111111111111111111' },
    }),
    201,
    'the merchant',
  );
  const key = { 'x-api-key': merchant.liveApiKey as string };
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const { orderId, customer, created, paymentId } = await placeVenmoAttempt(first.url, merchant.liveApiKey, {
    requestedUsdcAmount: '25',
    destinationAddress: destination,
  });
  t.is(created.quote.signalIntent.depositId, depositId.toString());
  t.is(created.memoPolicy, 'REQUIRED', 'the recipient releases automatically: the memo must name the intent');
  const signalled = await until(
    'the intent to be signalled',
    async () => ok(await customer(first.url, 'GET', `/payments/${paymentId}`), 200, 'the payment read'),
    (payment) => payment.railIdentifier !== null,
    20_000,
    () => logsOf(1),
  );
  const intentHash = signalled.railIdentifier as Hex;
  t.regex(signalled.suggestedMemo, /\S/);

  // The customer pays with the memo but never proves it; the maker's session sees the payment come in.
  const block = await local.publicClient.getBlock();
  simulator.recordPayment('venmo', makerSession, {
    paymentId: RECEIPT_ID,
    amount: parseFiat(signalled.paymentAmount),
    currency: 'USD',
    payee: MAKER_PAYEE,
    payer: '7777000111',
    direction: 'incoming',
    timestampMs: Number(block.timestamp) * 1000 + 60_000,
    status: 'completed',
    note: signalled.suggestedMemo,
  });

  // The merchant asks for the fulfilment from the receipt id; a PRO merchant's action runs at once.
  const startedAt = Date.now();
  const fulfilSar = (url: string) =>
    call(url, 'POST', `/api/v1/merchants/me/orders/${orderId}/payments/${paymentId}/fulfill-sar`, {
      headers: key,
      body: { txId: RECEIPT_ID, idempotencyKey: 'fulfil-sar-kill-0001' },
    });
  const accepted = ok(await fulfilSar(first.url), 202, 'the fulfill-sar request');
  const actionId: string = accepted.actionId;
  const actionRead = (url: string) => call(url, 'GET', `/api/v1/merchants/me/orders/${orderId}/actions/${actionId}`, { headers: key });

  // The seller path reads the receipt, the node sends fulfillIntent: the gate caps the indexer, forwards it, answers, and holds the rest.
  const closed = await within('the node to send fulfillIntent', gate.closed, 30_000, () => logsOf(1));
  const cap = headCap()!;
  const receipt = await local.publicClient.waitForTransactionReceipt({ hash: closed.hash, timeout: 10_000 });
  t.is(receipt.status, 'success');
  t.true(receipt.blockNumber > cap, 'the fulfilment is mined above the head the indexer sees');
  const [minedFact] = parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentFulfilled' });
  t.is(minedFact?.args.intentHash, intentHash);
  const receiptAsked = await until(
    'the node to ask for the fulfilment receipt',
    async () => gate.held.find((held) => held.method === 'eth_getTransactionReceipt' && String(held.params[0]).toLowerCase() === closed.hash),
    (held) => held !== undefined,
    10_000,
    () => `; held: ${JSON.stringify(gate.held.map((held) => held.method))}${logsOf(1)}`,
  );
  t.true(indexer.follower.cursor.number <= Number(cap));
  t.deepEqual(await fulfilledFacts(intentHash), []);
  const killedAt = Date.now();
  const killed = await first.kill();
  t.is(killed.signal, 'SIGKILL');

  // What the killed node had saved: the action running, the payment not yet told, the order not paid.
  const atKill = await savedState(dataDir, paymentId, orderId);
  t.is(atKill.actions.length, 1);
  const [actionAtKill] = atKill.actions;
  t.like(actionAtKill, { actionName: 'FULFILL_SAR', status: 'RUNNING', paymentId, txId: RECEIPT_ID, result: null, error: null, finishedAt: null });
  t.is(actionAtKill.actionId, actionId);
  t.truthy(actionAtKill.startedAt);
  t.is(atKill.payment.status, 'CREATED');
  t.is(atKill.payment.step, 'FULFILLING');
  t.is(atKill.payment.payment.fulfillTransaction, null);
  t.is(atKill.remediation?.actionId, actionId, 'the payment still carries the action out');
  t.is(atKill.credited, null);
  t.is(atKill.order.status, 'CREATED');
  t.is(atKill.order.order.remainingUsdcAmount, '25');
  t.deepEqual(atKill.settlements, []);
  t.is(atKill.fulfilments.length, 1);
  const [fulfilAtKill] = atKill.fulfilments;
  t.is(fulfilAtKill.outcome, null, 'the relayer had not heard the receipt');
  t.is(fulfilAtKill.status, 'SUBMITTED');
  t.deepEqual(
    fulfilAtKill.attempts.map((attempt: { hash: string }) => attempt.hash),
    [closed.hash],
    'the mined transaction is the one the node signed and saved',
  );
  t.false(
    events.some((event) => event.type === 'PAYMENT_SETTLED' || event.type === 'ORDER_FULFILLED'),
    'nothing settled before the kill',
  );

  // While the node is down the indexer logs the fact and the chain is reachable again.
  lift();
  const [fact] = await until(
    'the indexer to log IntentFulfilled',
    () => fulfilledFacts(intentHash),
    (facts) => facts.length === 1,
    10_000,
  );
  t.is(fact!.transactionHash, closed.hash);
  gate.open();

  // Run 2: the same data folder, the same chain, indexer and attestation service.
  const second = await PaymentNodeProcess.start(2, world.environment(2), events);
  nodes.push(second);
  const restartedAt = Date.now();
  const finished = await until(
    'the action to finish after the restart',
    async () => ok(await actionRead(second.url), 200, 'the action read'),
    (action) => ['SUCCEEDED', 'FAILED', 'BLOCKED'].includes(action.status),
    30_000,
    () => logsOf(2),
  );
  const finishedAt = Date.now();
  t.is(finished.status, 'SUCCEEDED', JSON.stringify(finished.error));
  t.deepEqual(finished.result, { dispatchAttemptId: `${paymentId}-fulfil-1`, fulfillTxHash: closed.hash });
  t.is(finished.error, null);
  t.truthy(finished.finishedAt);
  t.like(finished.payment, { id: paymentId, status: 'SETTLED', fulfillTransaction: closed.hash });

  const settled = ok(await customer(second.url, 'GET', `/payments/${paymentId}`), 200, 'the payment read');
  t.is(settled.status, 'SETTLED');
  t.is(settled.fulfillTransaction, closed.hash);
  const hosted = await until(
    'the order to be fulfilled',
    async () => ok(await call(second.url, 'GET', `/api/v1/orders/${orderId}`), 200, 'the hosted read'),
    (read) => read.order.status === 'FULFILLED',
  );
  t.is(hosted.order.remainingUsdcAmount, '0');

  // The settlement's events reach the bus; a second poll finds the action as it ended.
  const ours = () => events.filter((event) => event.actor.id === paymentId || event.actor.id === orderId);
  await until(
    'PAYMENT_SETTLED and ORDER_FULFILLED on the bus',
    async () => ours().map((event) => event.type),
    (types) => types.includes('PAYMENT_SETTLED') && types.includes('ORDER_FULFILLED'),
    10_000,
  );
  const polledAgain = ok(await actionRead(second.url), 200, 'the second action read');
  t.like(polledAgain, { status: 'SUCCEEDED', result: finished.result, finishedAt: finished.finishedAt, updatedAt: finished.updatedAt });
  // The merchant, unsure after the outage, sends the request again: the same action, as it ended, and nothing runs again.
  const replayed = ok(await fulfilSar(second.url), 200, 'the replayed fulfill-sar request');
  t.like(replayed, { actionId, status: 'SUCCEEDED' });
  const stopped = await second.stop();
  t.deepEqual(stopped, { code: 0, signal: null }, second.stderr);

  const after = await savedState(dataDir, paymentId, orderId);
  t.is(after.actions.length, 1);
  t.like(after.actions[0], { status: 'SUCCEEDED', result: finished.result, finishedAt: finished.finishedAt, live: false });
  t.is(after.remediation, null, 'the payment told the action and forgot it');
  t.is(after.payment.status, 'SETTLED');
  t.is(after.order.status, 'FULFILLED');
  t.is(after.credited, parseUsdc('25'));
  t.deepEqual(after.settlements, [{ paymentId, usdcAmount: after.credited }]);
  t.is(after.fulfilments.length, 1);
  t.is(after.fulfilments[0].status, 'MINED');
  t.is(after.fulfilments[0].attempts.length, 1, 'nothing was signed again after the restart');

  // On chain: one fulfilment of the intent, the relayer's two transactions (signal, fulfil) and no more.
  const onChain = await local.publicClient.getContractEvents({
    address: local.orchestrator,
    abi: orchestratorAbi,
    eventName: 'IntentFulfilled',
    args: { intentHash },
    fromBlock: 0n,
  });
  t.deepEqual(
    onChain.map((log) => log.transactionHash),
    [closed.hash],
  );
  t.is(await local.publicClient.getTransactionCount({ address: RELAYER.address }), sentAtDeploy + 2);

  // Events: each published once, PAYMENT_SETTLED and ORDER_FULFILLED by the restarted node only.
  const distinct = [...new Map(ours().map((event) => [event.id, event])).values()];
  t.deepEqual(
    distinct.map((event) => event.type),
    ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED'],
  );
  for (const type of ['PAYMENT_SETTLED', 'ORDER_FULFILLED']) {
    t.deepEqual(
      ours()
        .filter((event) => event.type === type)
        .map((event) => event.run),
      [2],
      `${type} published once, by the restarted node`,
    );
  }

  t.log(
    `fulfil forwarded ${closed.forwardedAt - startedAt} ms after fulfill-sar was posted; receipt asked ${receiptAsked!.heldAt - closed.answeredAt} ms after the send was answered; ` +
      `killed ${killedAt - closed.answeredAt} ms after; restart to SUCCEEDED ${finishedAt - restartedAt} ms; total ${Date.now() - started} ms`,
  );
  t.log(
    `events (run): ${ours()
      .map((event) => `${event.type}(${event.run})`)
      .join(', ')}`,
  );
});
