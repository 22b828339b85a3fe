/**
 * An atomic deposit creation survives its node being SIGKILLed after the batch is mined and
 * before the node learns of it: the deposit is created once, the maker's USDC leaves once, and
 * the request, asked again under its requestId after the restart, answers the same deposit.
 *
 * The node runs as `npm start` does (payment-node-child.ts over a durable DATA_DIR) against an
 * anvil in this process, through a JSON-RPC gate (CHAIN_RPC_URL). The kill is placed by
 * construction: the gate closes on the node's batch transaction (a type-4 transaction to the
 * maker's embedded wallet), forwards it (anvil mines it at once), and from then on holds every
 * call, so the receipt never reaches the node. Once the node has asked for that receipt, it is
 * SIGKILLed; a second node over the same folder, with the gate open, finishes the request.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parseTransaction, parseUnits, toHex, type Hex } from 'viem';
import { createSiweMessage } from 'viem/siwe';
import { EmbeddedStore, actorCollectionName } from '../../actors/index.js';
import { anvilTestAccount, escrowAbi, localEmbeddedAccount, mockUSDCAbi, startLocalChain } from '../../indexer/chain/index.js';
import { depositRequest } from '../support/atomic-create.js';
import { PaymentNodeProcess, type RunEvent } from './payment-node-process.js';
import { RpcGate } from './payment-rpc-gate.js';
import { call, until, type Answer } from './http-polls.js';

const CHAIN_ID = 8453;
const RELAYER = anvilTestAccount(7);
const MAKER = localEmbeddedAccount(0);
const FUNDS = parseUnits('1000', 6);
const AMOUNT = parseUnits('300', 6);
const privateKeyOf = (account: typeof RELAYER): Hex => toHex(account.getHdKey().privateKey!);

const root = mkdtempSync(join(tmpdir(), 'peer-atomic-kill-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

async function signIn(url: string): Promise<Record<string, string>> {
  const challenge = (await call(url, 'POST', '/v2/auth/nonce')).body.responseObject;
  const message = createSiweMessage({
    domain: challenge.domain,
    address: MAKER.address,
    statement: challenge.statement,
    uri: challenge.uri,
    version: '1',
    chainId: CHAIN_ID,
    nonce: challenge.nonce,
    issuedAt: new Date(),
  });
  const answer = await call(url, 'POST', '/v2/auth/verify', { body: { message, signature: await MAKER.signMessage({ message }) } });
  if (answer.status !== 200) throw new Error(`sign-in: ${JSON.stringify(answer.body)}`);
  return { authorization: `Bearer ${answer.body.responseObject.token}` };
}

/** What the killed node had saved, read with no node running on the folder. */
async function savedState(dataDir: string, requestId: string) {
  const store = await EmbeddedStore.open({ dataDir });
  try {
    const actors = async (kind: string) => store.collection({ name: actorCollectionName(kind), indexes: [] });
    const deposit = (await (await actors('deposit')).findOne({ _id: requestId }))?.view as any;
    const transactions = (await (await actors('transaction')).find({})).map((doc) => doc.view as any).filter((view) => view.purpose === 'atomicCreateDeposit');
    return { deposit, transactions };
  } finally {
    await store.close();
  }
}

test('an atomic-create whose node is SIGKILLed after its batch is mined, before it learns of it, confirms once after the restart', async (t) => {
  t.timeout(180_000);
  const local = await startLocalChain({ chainId: CHAIN_ID });
  t.teardown(() => local.stop());
  await local.mintUsdc(MAKER.address, FUNDS);

  const isBatch = (raw: Hex) => {
    try {
      return parseTransaction(raw).to?.toLowerCase() === MAKER.address.toLowerCase();
    } catch {
      return false;
    }
  };
  const gate = await RpcGate.start(local.rpcUrl, { closesOn: isBatch, beforeClosing: async () => {} });
  t.teardown(() => gate.stop());

  const dataDir = join(root, 'data');
  const environment = (run: number): Record<string, string> => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    NODE_ID: 'atomic-kill-node',
    DATA_DIR: dataDir,
    ID_SECRET: 'atomic-kill-id-secret-0123456789abcdef',
    RATE_LIMIT_PER_MINUTE: '1000000',
    TIMER_POLL_MS: '100',
    SWEEP_INTERVAL_MS: '100',
    ENCLAVE_ENABLED: 'false',
    CHAIN_RPC_URL: gate.url,
    CHAIN_USDC_ADDRESS: local.usdc,
    CHAIN_ESCROW_ADDRESS: local.escrow,
    CHAIN_ORCHESTRATOR_ADDRESS: local.orchestrator,
    CHAIN_BATCH_EXECUTOR_ADDRESS: local.batchExecutor,
    CHAIN_DEPOSIT_ASSERTIONS_ADDRESS: local.depositAssertions,
    LOCAL_EMBEDDED_WALLETS: 'true',
    RELAYER_PRIVATE_KEYS: privateKeyOf(RELAYER),
    RELAYER_CHECK_MS: '200',
    ATOMIC_CREATE_WAIT_MS: '20000',
    PAYMENT_NODE_LOG: join(root, `node-${run}.log`),
  });
  const events: RunEvent[] = [];
  const nodes: PaymentNodeProcess[] = [];
  t.teardown(async () => {
    for (const node of nodes) await node.kill();
  });
  const logsOf = (run: number) => `\n(node log: ${join(root, `node-${run}.log`)})`;
  const depositCount = () => local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'depositCount' });
  const balance = () => local.publicClient.readContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'balanceOf', args: [MAKER.address] });
  const countBefore = await depositCount();

  const first = await PaymentNodeProcess.start(1, environment(1), events);
  nodes.push(first);
  const headers = await signIn(first.url);
  const request = depositRequest(local, AMOUNT, randomUUID());
  const posted = call(first.url, 'POST', '/v2/deposits/atomic-create', { headers, body: request }).catch((error: unknown) => error);

  const closed = await until(
    'the node to send its batch',
    async () => gate.isClosed,
    (value) => value,
    30_000,
    () => logsOf(1),
  );
  t.true(closed);
  const { hash } = await gate.closed;
  await until(
    'the batch mined',
    () => local.publicClient.getTransactionReceipt({ hash }).catch(() => null),
    (receipt) => receipt !== null,
  );
  await until(
    'the node to ask for the receipt',
    async () => gate.held.some((held) => held.method === 'eth_getTransactionReceipt' && String(held.params[0]).toLowerCase() === hash),
    (asked) => asked,
    30_000,
    () => `; held: ${JSON.stringify(gate.held.map((held) => held.method))}${logsOf(1)}`,
  );
  const killed = await first.kill();
  t.is(killed.signal, 'SIGKILL');
  const firstAnswer = await posted;

  // What the killed node had saved: the request submitted, its transaction without an outcome.
  const atKill = await savedState(dataDir, request.requestId);
  t.is(atKill.deposit.status, 'pending');
  t.is(atKill.deposit.transactionHash, null);
  t.is(atKill.transactions.length, 1);
  t.is(atKill.transactions[0].outcome, null, 'the relayer had not heard the receipt');
  t.deepEqual(
    atKill.transactions[0].attempts.map((attempt: { hash: string }) => attempt.hash),
    [hash],
    'the mined batch is the one the node signed and saved',
  );
  t.is(await depositCount(), countBefore + 1n, 'the batch created the deposit before the kill');

  gate.open();
  const second = await PaymentNodeProcess.start(2, environment(2), events);
  nodes.push(second);
  const status = await until(
    'the request confirmed after the restart',
    () => call(second.url, 'GET', `/v2/deposits/atomic-create/${request.requestId}`, { headers }),
    (answer) => answer.body.responseObject?.status === 'confirmed',
    60_000,
    () => logsOf(2),
  );
  const reserved = (countBefore + 1n).toString();
  t.like(status.body.responseObject, { status: 'confirmed', depositId: reserved, transactionHash: hash });

  const again = await call(second.url, 'POST', '/v2/deposits/atomic-create', { headers, body: request });
  t.is(again.status, 201, JSON.stringify(again.body));
  t.like(again.body.responseObject, { depositId: reserved, transactionHash: hash });
  if (!(firstAnswer instanceof Error))
    t.deepEqual((firstAnswer as Answer).body.responseObject, again.body.responseObject, 'the answer before the kill and after agree');

  t.is(await depositCount(), countBefore + 1n, 'one deposit, created once');
  t.is(await balance(), FUNDS - AMOUNT, 'the maker’s USDC left once');
  t.is(
    (await local.publicClient.readContract({ address: local.escrow, abi: escrowAbi, functionName: 'getDeposit', args: [BigInt(reserved)] })).depositor,
    MAKER.address,
  );
  t.log(`first answer: ${firstAnswer instanceof Error ? `none (${firstAnswer.message})` : JSON.stringify((firstAnswer as Answer).body)}`);
});
