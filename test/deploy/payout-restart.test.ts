/**
 * Open payouts survive their node, as `npm start` runs it (a child process over DATA_DIR with
 * its local chain and local conversion provider in-process): a node SIGKILLed with two payouts
 * awaiting funding is started again over the same folder, and the local provider knows their
 * deposit addresses still. One is cancelled (the provider is asked for its record first), the
 * other is funded from the local test wallet through the development route and reaches FUNDED
 * once, its USDC delivered once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { payoutMerchant } from '../chaos/payout-merchant.js';
import { call, ok, until } from '../chaos/http-polls.js';
import { PaymentNodeProcess, type RunEvent } from '../chaos/payment-node-process.js';
import { USDC_ON_BASE, payoutBody } from '../support/payout-fakes.js';

const ADMIN_TOKEN = 'payout-restart-admin-token-0123456789';
const root = mkdtempSync(join(tmpdir(), 'peer-payout-restart-'));
// The killed node's anvil still writes the chain's state as it exits: retry while the folder fills.
test.after.always(() => rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 }));

const environment = (dataDir: string): Record<string, string> => ({
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'warn',
  DATA_DIR: dataDir,
  PEER_ADMIN_TOKEN: ADMIN_TOKEN,
  ID_SECRET: 'payout-restart-id-secret-0123456789abcdef',
  TIMER_POLL_MS: '100',
  SWEEP_INTERVAL_MS: '100',
  PAYOUT_FUNDING_POLL_MS: '1000',
});

test('a node SIGKILLed with open payouts finds them and their provider records after a start: one cancels, one funds once', async (t) => {
  t.timeout(120_000);
  const dataDir = join(root, 'data');
  const events: RunEvent[] = [];
  const first = await PaymentNodeProcess.start(1, environment(dataDir), events, 60_000);
  t.teardown(() => first.kill().then(() => undefined));
  const merchant = await payoutMerchant(first.url, ADMIN_TOKEN, 'Payout Restart');
  const create = (url: string, key: string) =>
    call(url, 'POST', '/api/v1/payouts', { headers: { 'x-api-key': merchant.liveApiKey, 'idempotency-key': key }, body: payoutBody() });
  const funded = ok(await create(first.url, 'restart-funded'), 201, 'the payout to fund');
  const cancelled = ok(await create(first.url, 'restart-cancelled'), 201, 'the payout to cancel');
  t.not(funded.funding.depositAddress, cancelled.funding.depositAddress);
  await first.kill();

  const second = await PaymentNodeProcess.start(2, environment(dataDir), events, 60_000);
  t.teardown(() => second.kill().then(() => undefined));
  const key = { 'x-api-key': merchant.liveApiKey };
  const replay = ok(await create(second.url, 'restart-funded'), 200, 'the replay after the restart');
  t.is(replay.funding.depositAddress, funded.funding.depositAddress);

  const cancel = ok(await call(second.url, 'POST', `/api/v1/payouts/${cancelled.payoutId}/cancel`, { headers: key }), 200, 'the cancel after the restart');
  t.is(cancel.status, 'CANCELLED');

  const sent = ok(
    await call(second.url, 'POST', '/dev/local-wallet/transfers', {
      body: { depositAddress: funded.funding.depositAddress, chainId: 8453, tokenAddress: USDC_ON_BASE, amount: funded.funding.amount },
    }),
    201,
    'the funding transfer',
  );
  t.regex(sent.transactionHash, /^0x[0-9a-f]{64}$/);
  const payout = await until(
    'the payout funded after the restart',
    async () => ok(await call(second.url, 'GET', `/api/v1/payouts/${funded.payoutId}`, { headers: key }), 200, 'the read'),
    (read) => read.status === 'FUNDED',
    30_000,
  );
  t.like(payout, { fundingStatus: 'FUNDED', funding: { sentAmount: '104.123712', receivedAmount: '101.000001', missingAmount: '0' } });
  // The event is published after the turn that funded it is written: under load it can trail the read.
  const fundedIds = () =>
    new Set(events.filter((event) => event.type === 'PAYOUT_ORDER_FUNDED' && event.actor.id === funded.payoutId).map((event) => event.id));
  await until(
    'PAYOUT_ORDER_FUNDED published',
    async () => fundedIds().size,
    (size) => size > 0,
    30_000,
  );
  t.is(fundedIds().size, 1);
});
