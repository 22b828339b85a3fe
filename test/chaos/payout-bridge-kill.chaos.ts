/**
 * A crypto payout through the conversion provider survives the node being SIGKILLed after the
 * customer's wallet sent the USDC to the provider and before the node learned the send was
 * mined (issue 39; money paths are killed in the middle): after the restart the payout does not
 * send again, follows the bridge the provider is delivering, and is SETTLED once, with exactly
 * one transfer of the payout's USDC out of the wallet.
 *
 * Outside the node and outliving it, as in payout-buyer-kill.chaos.ts: anvil with our contracts
 * (chain id 8453), an indexer over it, the local conversion provider (which funds the payout
 * and bridges it out), a mail catcher, and the JSON-RPC gate the node reaches the chain
 * through. The gate closes on the wallet's batch: forwarded and answered, then every call held,
 * so the relayer never reads its receipt; the node is killed once it asks for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { decodeFunctionData, erc20Abi, parseEventLogs, parseTransaction, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { EmbeddedStore } from '../../actors/index.js';
import { openIndexerCollections } from '../../deploy/chain.js';
import { startIndexer } from '../../indexer/indexer-server.js';
import { batchExecutorFunctionsAbi } from '../../machines/deposit/index.js';
import { WORKED_PAYOUT_SETTINGS } from '../support/payout-fakes.js';
import { ok, until, within } from './http-polls.js';
import { PaymentNodeProcess, type RunEvent } from './payment-node-process.js';
import { fundedSignedInPayout, payoutNodeEnvironment, payoutWorldOutside } from './payout-node.js';
import { RpcGate } from './payment-rpc-gate.js';

const ADMIN_TOKEN = 'payout-bridge-kill-admin-token-0123456789';
const _CHAIN_ID = 8453;
const USDT_ON_ARBITRUM = '0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9';

const root = mkdtempSync(join(tmpdir(), 'peer-payout-bridge-kill-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

/** A batch a wallet runs through the batch executor: the only transaction a crypto payout from READY sends. */
function isWalletBatch(raw: Hex): boolean {
  try {
    const transaction = parseTransaction(raw);
    return decodeFunctionData({ abi: batchExecutorFunctionsAbi, data: transaction.data! }).functionName === 'execute';
  } catch {
    return false;
  }
}

test('a bridge whose node is SIGKILLed after the wallet’s send is mined, before it learns of it, is sent once and SETTLED once after the restart', async (t) => {
  t.timeout(150_000);
  const { silent, enclave, local, provider, mail } = await payoutWorldOutside(t);
  const indexer = await startIndexer({
    client: local.publicClient,
    contracts: { chainId: local.chainId, usdc: local.usdc, escrow: local.escrow, orchestrator: local.orchestrator },
    collections: await openIndexerCollections(new EmbeddedStore(), local.chainId),
    logger: silent,
    address: '127.0.0.1:0',
    startBlock: Number(local.deployBlock),
    pollMs: 20,
  });
  t.teardown(() => indexer.stop());
  const gate = await RpcGate.start(local.rpcUrl, { closesOn: isWalletBatch, beforeClosing: async () => {} });
  t.teardown(() => gate.stop());

  const world = {
    name: 'payout-bridge-kill',
    adminToken: ADMIN_TOKEN,
    local,
    rpcUrl: gate.url,
    indexerAddress: indexer.address,
    enclave,
    provider,
    mail,
    root,
  };
  const events: RunEvent[] = [];
  const nodes: PaymentNodeProcess[] = [];
  t.teardown(async () => {
    for (const node of nodes) await node.kill();
  });
  const start = async (run: number) => {
    const node = await PaymentNodeProcess.start(run, payoutNodeEnvironment(world, run), events, 60_000);
    nodes.push(node);
    provider.activityUrl = `${node.url}/api/v1/providers/conversion/funding-activity`;
    return node;
  };

  // Run 1: funded, signed in, USDT on Arbitrum chosen, confirmed.
  const first = await start(1);
  const { created, read, cashout, loginToken, logsOf } = await fundedSignedInPayout(world, first, [...WORKED_PAYOUT_SETTINGS.methods, 'routea_42161']);
  const recipient = privateKeyToAccount(generatePrivateKey()).address;
  ok(await cashout(first, 'PUT', '/method', { rail: 'routea_42161', tokenAddress: USDT_ON_ARBITRUM, address: recipient }, loginToken), 200, 'the method');
  const confirmed = ok(await cashout(first, 'POST', '/confirm', undefined, loginToken), 200, 'the confirm');
  t.like(confirmed, { payout: { status: 'READY' }, payoutBridge: { status: 'QUOTED', usdcAmount: '100.00' } });

  // The wallet's batch is mined and answered; the node asks for its receipt, is held, and is killed.
  const closed = await within('the wallet’s send', gate.closed, 30_000, () => logsOf(1));
  const receipt = await local.publicClient.waitForTransactionReceipt({ hash: closed.hash, timeout: 10_000 });
  t.is(receipt.status, 'success');
  await until(
    'the node to ask for the send’s receipt',
    async () => gate.held.some((held) => held.method === 'eth_getTransactionReceipt' && String(held.params[0]).toLowerCase() === closed.hash),
    (asked) => asked,
    10_000,
  );
  t.like(ok(await cashout(first, 'GET'), 200, 'the state'), { payoutBridge: { status: 'QUOTED' } }, 'the node had not learned of the send');
  t.like(await first.kill(), { signal: 'SIGKILL' });

  gate.open();
  const second = await start(2);
  const settled = await until(
    'SETTLED after the restart',
    () => read(second),
    (payout) => payout.status === 'SETTLED',
    45_000,
    () => logsOf(2),
  );
  t.like(settled, {
    settlement: { sentAmount: '100.00', refundFeeAmount: '0.00' },
    payoutTransfer: { chainId: 42161, address: recipient, provider: 'ROUTEA' },
  });
  t.is(settled.payoutTransfer.usdcTxHash, closed.hash);

  // Exactly one transfer of the payout's USDC left the wallet: the one the killed node sent.
  const wallet = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' })[0]!.args.from;
  const sends = await local.publicClient.getLogs({
    address: local.usdc,
    event: erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer')!,
    args: { from: wallet },
    fromBlock: local.deployBlock,
    toBlock: 'latest',
  });
  t.is(sends.length, 1, 'one send out of the wallet');
  t.is(sends[0]!.args.value, 100_000_000n);
  // A later poll of the provider changes nothing: SETTLED once.
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  t.is((await read(second)).status, 'SETTLED');
  const settledEvents = new Set(
    events.filter((event) => event.type === 'PAYOUT_ORDER_SETTLED' && event.actor.id === created.payoutId).map((event) => event.id),
  );
  t.is(settledEvents.size, 1, 'one PAYOUT_ORDER_SETTLED');
});
