/**
 * A live payment survives its node being SIGKILLed between the fulfilment transaction
 * being mined and the payment learning of it.
 *
 * The node runs as `npm start` does (payment-node-child.ts: deploy/node.ts over a durable
 * DATA_DIR), but everything outside it lives in this process and outlives it: anvil with
 * our contracts (chain id 8453, so an order paid out on Base settles on it), the indexer
 * over it (INDEXER_URL), the attestation service with its platform simulator
 * (ENCLAVE_URL), and a JSON-RPC gate the node reaches the chain through (CHAIN_RPC_URL).
 *
 * The kill is placed by construction, not by timing. The node learns that its fulfilment
 * landed in two ways only: the relayer's receipt (over CHAIN_RPC_URL) and the indexer's
 * IntentFulfilled fact (over INDEXER_URL). When the node sends fulfillIntent, the gate,
 * before forwarding it, caps the head the indexer sees at the block before (the fact
 * cannot be logged), then closes: the transaction is forwarded, mined and its hash
 * answered, and every call the node makes after that is held unanswered. The test waits
 * until the receipt is on chain and the node has asked for it (held), and SIGKILLs it.
 * Opening its data folder then shows what it had saved: the payment still FULFILLING,
 * the order not paid, the transaction without an outcome. The cap is lifted, the indexer
 * logs the fact, the gate opens, and a new node starts over the same folder: the payment
 * settles once from that fact, with the transaction mined before the kill, and the order
 * counts it once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { getAddress, parseEventLogs, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { mockUSDCAbi, orchestratorAbi } from '../../indexer/chain/index.js';
import { formatUsdc, parseUsdc } from '../../machines/money.js';
import { BuyerSimulator, sealForPayment } from '../support/buyer-simulator.js';
import { MAKER_PAYEE, venmoDeposit } from '../support/payment-flow.js';
import { PaymentNodeProcess } from './payment-node-process.js';
import { RELAYER, savedState, startFulfilKillWorld } from './fulfil-kill-world.js';
import { call, ok, until, within } from './http-polls.js';

const root = mkdtempSync(join(tmpdir(), 'peer-payment-kill-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

test('a live payment whose node is SIGKILLed after its fulfilment is mined, before it learns of it, settles once after the restart', async (t) => {
  t.timeout(60_000);
  const started = Date.now();
  const world = await startFulfilKillWorld(t, root, 'payment-kill', venmoDeposit);
  const { enclave, local, sentAtDeploy, measurement, depositId, indexer, gate, cap: headCap, lift, fulfilledFacts, dataDir, events, nodes, logsOf } = world;

  // Run 1: a live order, quoted against the deposit, a payment signalled, paid and proven.
  const first = await PaymentNodeProcess.start(1, world.environment(1), events);
  nodes.push(first);
  const startedAt = Date.now();
  const merchant = ok(
    await call(first.url, 'POST', '/internal/v1/merchants', {
      headers: { authorization: `Bearer ${world.adminToken}` },
      body: { name: 'Kill Test', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' },
    }),
    201,
    'the merchant',
  );
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const placed = ok(
    await call(first.url, 'POST', '/api/v1/orders', {
      headers: { 'x-api-key': merchant.liveApiKey },
      body: { requestedUsdcAmount: '25', destinationAddress: destination },
    }),
    201,
    'the order',
  );
  const orderId: string = placed.order.id;
  const customer = (url: string, method: string, path: string, body?: unknown) =>
    call(url, method, `/api/v1/checkout/orders/${orderId}${path}`, {
      headers: { authorization: `Bearer ${placed.orderToken}` },
      ...(body === undefined ? {} : { body }),
    });

  const quotes = await until(
    'the deposit to be quoted',
    () => customer(first.url, 'GET', '/quotes?rail=venmo'),
    (answer) => answer.status === 200 && answer.body.responseObject.platforms.length > 0,
  );
  t.is(quotes.body.responseObject.platforms[0].payTo, MAKER_PAYEE);
  const created = ok(await customer(first.url, 'POST', '/payments', { rail: 'venmo' }), 201, 'the payment');
  const paymentId: string = created.id;
  t.is(created.quote.signalIntent.depositId, depositId.toString());
  const signalled = await until(
    'the intent to be signalled',
    async () => ok(await customer(first.url, 'GET', `/payments/${paymentId}`), 200, 'the payment read'),
    (payment) => payment.railIdentifier !== null,
    20_000,
    () => logsOf(1),
  );
  const intentHash = signalled.railIdentifier as Hex;
  t.regex(intentHash, /^0x[0-9a-f]{64}$/);

  const buyer = new BuyerSimulator(enclave.simulator!.url);
  const session = await buyer.signIn('venmo', 'kill-test-buyer');
  const sent = await buyer.pay(session, {
    payee: signalled.payTo,
    amount: signalled.paymentAmount,
    currency: signalled.currency,
    note: signalled.suggestedMemo,
  });
  const sealed = await sealForPayment(signalled.attestation.serviceUrl, { measurement, signer: enclave.service.signer }, session, {
    chainId: local.chainId,
    intentHash,
  });
  ok(await customer(first.url, 'POST', `/payments/${paymentId}/proof`, { encryptedSessionMaterial: sealed, params: sent.proofParams }), 202, 'the proof');

  // The node verifies the proof and sends fulfillIntent: the gate caps the indexer, forwards it, answers, and holds the rest.
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
  // The indexer stands below the fulfilment's block, with no IntentFulfilled logged: no fact could reach the node.
  t.true(indexer.follower.cursor.number <= Number(cap));
  t.deepEqual(await fulfilledFacts(intentHash), []);
  const killedAt = Date.now();
  const killed = await first.kill();
  t.is(killed.signal, 'SIGKILL');

  // What the killed node had saved: the payment had not learned, the order not counted it.
  const atKill = await savedState(dataDir, paymentId, orderId);
  t.is(atKill.payment.status, 'CREATED');
  t.is(atKill.payment.step, 'FULFILLING');
  t.is(atKill.payment.payment.fulfillTransaction, null);
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

  // The world moves on while the node is down: the indexer logs the fact, the chain is reachable again.
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
  const settled = await until(
    'the payment to settle after the restart',
    async () => ok(await customer(second.url, 'GET', `/payments/${paymentId}`), 200, 'the payment read'),
    (payment) => payment.status === 'SETTLED',
    30_000,
    () => logsOf(2),
  );
  const settledAt = Date.now();
  t.is(settled.fulfillTransaction, closed.hash);
  t.is(settled.errorCode, null);
  const net = minedFact!.args.amount;
  t.is(settled.netSettledUsdcAmount, formatUsdc(net));
  const hosted = await until(
    'the order to be fulfilled',
    async () => ok(await call(second.url, 'GET', `/api/v1/orders/${orderId}`), 200, 'the hosted read'),
    (read) => read.order.status === 'FULFILLED',
  );
  t.is(hosted.order.remainingUsdcAmount, '0');
  t.is(hosted.currentPayment.id, paymentId);
  t.is(hosted.currentPayment.fulfillTransaction, closed.hash);
  const listed = ok(
    await call(second.url, 'GET', `/api/v1/merchants/me/orders/${orderId}/payments`, { headers: { 'x-api-key': merchant.liveApiKey } }),
    200,
    'the merchant list',
  );
  t.deepEqual(
    listed.payments.map((row: { id: string; status: string; fulfillTransaction: string }) => [row.id, row.status, row.fulfillTransaction]),
    [[paymentId, 'SETTLED', closed.hash]],
  );

  // The settlement's events reach the bus; then the node drains and stops, and its folder is read.
  const ours = () => events.filter((event) => event.actor.id === paymentId || event.actor.id === orderId);
  await until(
    'PAYMENT_SETTLED and ORDER_FULFILLED on the bus',
    async () => ours().map((event) => event.type),
    (types) => types.includes('PAYMENT_SETTLED') && types.includes('ORDER_FULFILLED'),
    10_000,
  );
  const stopped = await second.stop();
  t.deepEqual(stopped, { code: 0, signal: null }, second.stderr);

  const after = await savedState(dataDir, paymentId, orderId);
  t.is(after.payment.status, 'SETTLED');
  t.is(after.order.status, 'FULFILLED');
  t.is(after.order.order.remainingUsdcAmount, '0');
  t.is(after.order.hosted.amountLock, 'PAID');
  // Counted once: one settlement, of exactly what the payment credits (25 USDC, the merchant bearing the fees).
  t.is(after.credited, parseUsdc('25'));
  t.deepEqual(after.settlements, [{ paymentId, usdcAmount: after.credited }]);
  t.is(after.fulfilments.length, 1);
  t.is(after.fulfilments[0].status, 'MINED');
  t.is(after.fulfilments[0].outcome.hash, closed.hash);
  t.is(after.fulfilments[0].attempts.length, 1, 'nothing was signed again after the restart');

  // On chain: one fulfilment of the intent, the USDC delivered once, the relayer's two transactions (signal, fulfil) and no more.
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
  t.is(await local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [destination as Address] }), net);
  t.is(await local.publicClient.getTransactionCount({ address: RELAYER.address }), sentAtDeploy + 2);
  t.is(getAddress(minedFact!.args.fundsTransferredTo), getAddress(destination));

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
    `fulfil forwarded ${closed.forwardedAt - startedAt} ms after the node served; receipt asked ${receiptAsked!.heldAt - closed.answeredAt} ms after the send was answered; ` +
      `killed ${killedAt - closed.answeredAt} ms after; restart to SETTLED ${settledAt - restartedAt} ms; total ${Date.now() - started} ms`,
  );
  t.log(
    `held at the kill: ${gate.held.map((held) => held.method).join(', ')}; events (run): ${ours()
      .map((event) => `${event.type}(${event.run})`)
      .join(', ')}`,
  );
});
