/**
 * A payout's funding survives its node being SIGKILLed twice: once while the funding transfer
 * is converting at the provider, once as the node announces the payout FUNDED.
 *
 * The node runs as `npm start` does (payment-node-child.ts: deploy/node.ts over a durable
 * DATA_DIR), pointed at a chain and a conversion provider that live in this process and
 * outlive it: anvil (chain id 8453, so its USDC is the payout's USDC on Base) and the local
 * conversion provider over it (CONVERSION_PROVIDER_URL), whose conversions the test holds.
 *
 * Run 1 creates a 100 USDC payout (document 2's worked numbers), the local wallet sends its
 * 104.123712 USDC to the deposit address, and once the node has seen the transfer converting
 * it is SIGKILLed. While it is down the provider converts and delivers; its activity report
 * finds nobody. Run 2 must learn of the delivery on its own (the durable funding check), and
 * is SIGKILLed the moment its bus carries PAYOUT_ORDER_FUNDED. Run 3 starts over the same
 * folder. Then: the payout FUNDED, one PAYOUT_ORDER_FUNDED (by event id), the customer's
 * wallet holding exactly 101.000001 USDC and each fee wallet its fee once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { erc20Abi, parseEventLogs, type Address } from 'viem';
import { createLogger } from '../../actors/index.js';
import { ConversionSimulator } from '../../deploy/conversion-simulator/index.js';
import { LOCAL_SOLVER_INDEX } from '../../deploy/conversion-simulator/local-settlement.js';
import { anvilTestAccount, startLocalChain } from '../../indexer/chain/index.js';
import { USDC_ON_BASE, WORKED_PAYOUT_SETTINGS, payoutBody } from '../support/payout-fakes.js';
import { payoutMerchant } from './payout-merchant.js';
import { call, ok, until } from './http-polls.js';
import { PaymentNodeProcess, type RunEvent } from './payment-node-process.js';

const ADMIN_TOKEN = 'payout-kill-admin-token-0123456789';
const SERVICE_WALLET = '0x3333333333333333333333333333333333333333';
const SOLVER = anvilTestAccount(LOCAL_SOLVER_INDEX).address;
const root = mkdtempSync(join(tmpdir(), 'peer-payout-kill-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

test('a payout whose node is SIGKILLed while its funding converts, and again as it is FUNDED, is funded once with its USDC delivered once', async (t) => {
  t.timeout(150_000);
  const local = await startLocalChain({ chainId: 8453 });
  t.teardown(() => local.stop());
  const provider = await ConversionSimulator.start({ chain: local, now: () => Date.now(), logger: createLogger({ level: 'silent' }), pollMs: 50 });
  t.teardown(() => provider.stop());
  const usdcOf = (address: string) =>
    local.publicClient.readContract({ address: local.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] });
  /** Every USDC transfer the provider's solver made: what it delivered, each fee and the customer's share apart. */
  const deliveries = async () =>
    parseEventLogs({
      abi: erc20Abi,
      eventName: 'Transfer',
      logs: await local.publicClient.getLogs({ address: local.usdc, fromBlock: local.deployBlock, toBlock: 'latest' }),
    }).filter((log) => log.args.from === SOLVER);

  const dataDir = join(root, 'data');
  const environment = (run: number): Record<string, string> => ({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info',
    NODE_ID: 'payout-kill-node',
    DATA_DIR: dataDir,
    PEER_ADMIN_TOKEN: ADMIN_TOKEN,
    ID_SECRET: 'payout-kill-id-secret-0123456789abcdef',
    RATE_LIMIT_PER_MINUTE: '1000000',
    TIMER_POLL_MS: '100',
    SWEEP_INTERVAL_MS: '100',
    CHAIN_RPC_URL: local.rpcUrl,
    CHAIN_USDC_ADDRESS: local.usdc,
    CHAIN_ESCROW_ADDRESS: local.escrow,
    CHAIN_ORCHESTRATOR_ADDRESS: local.orchestrator,
    CONVERSION_PROVIDER_URL: provider.url,
    LOCAL_EMBEDDED_WALLETS: 'true',
    PAYOUT_SERVICE_FEE_WALLET: SERVICE_WALLET,
    PAYOUT_FUNDING_POLL_MS: '1000',
    PAYMENT_NODE_LOG: join(root, `node-${run}.log`),
  });
  const events: RunEvent[] = [];
  const nodes: PaymentNodeProcess[] = [];
  t.teardown(async () => {
    for (const node of nodes) await node.kill();
  });
  const start = async (run: number) => {
    const node = await PaymentNodeProcess.start(run, environment(run), events, 60_000);
    nodes.push(node);
    provider.activityUrl = `${node.url}/api/v1/providers/conversion/funding-activity`;
    return node;
  };

  // Run 1: the payout, its funding sent and held converting at the provider, seen by the node.
  const first = await start(1);
  const merchant = await payoutMerchant(first.url, ADMIN_TOKEN, 'Payout Kill');
  const key = { 'x-api-key': merchant.liveApiKey };
  const created = ok(
    await call(first.url, 'POST', '/api/v1/payouts', { headers: { ...key, 'idempotency-key': 'payout-kill-1' }, body: payoutBody() }),
    201,
    'the payout',
  );
  t.is(created.funding.amount, '104.123712');
  const read = async (node: PaymentNodeProcess) => ok(await call(node.url, 'GET', `/api/v1/payouts/${created.payoutId}`, { headers: key }), 200, 'the read');
  provider.hold(true);
  await provider.sendFromWallet({ depositAddress: created.funding.depositAddress, chainId: 8453, tokenAddress: USDC_ON_BASE, amount: '104.123712' });
  const converting = await until(
    'the node to see the funding converting',
    () => read(first),
    (payout) => payout.funding.sentAmount === '104.123712',
    30_000,
  );
  t.like(converting, { status: 'AWAITING_FUNDING', funding: { receivedAmount: '0.00' } });
  t.like(await first.kill(), { signal: 'SIGKILL' });

  // While the node is down the provider converts and delivers; its report reaches nobody.
  provider.hold(false);
  await until('the delivery on chain', deliveries, (paid) => paid.length > 0, 30_000);

  // Run 2 learns of the delivery itself, and dies as it announces FUNDED.
  const second = await start(2);
  await until(
    'run 2 to announce the payout FUNDED',
    async () => events.filter((event) => event.run === 2 && event.type === 'PAYOUT_ORDER_FUNDED').length,
    (count) => count > 0,
    30_000,
  );
  t.like(await second.kill(), { signal: 'SIGKILL' });

  // Run 3 over the same folder: the books as they must be.
  const third = await start(3);
  const payout = await until(
    'the payout FUNDED in run 3',
    () => read(third),
    (read) => read.status === 'FUNDED',
    30_000,
  );
  t.like(payout, { fundingStatus: 'FUNDED', funding: { sentAmount: '104.123712', receivedAmount: '101.000001', missingAmount: '0' } });
  // The outbox may hand an event over again after a kill; it is the same event, under its id.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const funded = new Set(events.filter((event) => event.type === 'PAYOUT_ORDER_FUNDED' && event.actor.id === created.payoutId).map((event) => event.id));
  t.is(funded.size, 1, 'one PAYOUT_ORDER_FUNDED');
  const createdEvents = new Set(events.filter((event) => event.type === 'PAYOUT_ORDER_CREATED').map((event) => event.id));
  t.is(createdEvents.size, 1);
  const paid = await deliveries();
  const fees = [WORKED_PAYOUT_SETTINGS.merchantWalletAddress, SERVICE_WALLET].map((wallet) => wallet.toLowerCase());
  const toCustomer = paid.filter((log) => !fees.includes(log.args.to.toLowerCase()));
  t.deepEqual(
    toCustomer.map((log) => log.args.value),
    [101_000_001n],
    'one delivery to the customer’s wallet',
  );
  t.is(await usdcOf(toCustomer[0]!.args.to), 101_000_001n);
  t.is(paid.length, 3, 'the customer’s share and two fees, each once');
  t.is(await usdcOf(WORKED_PAYOUT_SETTINGS.merchantWalletAddress), paid.find((log) => log.args.to.toLowerCase() === fees[0])!.args.value);
});
