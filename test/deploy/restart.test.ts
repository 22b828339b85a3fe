/**
 * The embedded default over one data folder, started as `npm start` starts it (a child
 * process running deploy/node.ts over DATA_DIR, its local chain, indexer and attestation
 * service in-process): a live Venmo payment completes on the first start, after a SIGKILL
 * and a start, and after a drain and a start, on the same chain, with the same deposits.
 * And a node started over a data folder whose chain was replaced says so in one line,
 * reports itself degraded, and refuses live payments at once instead of leaving the
 * customer waiting.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import type { Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { BuyerSimulator, sealForPayment } from '../support/buyer-simulator.js';
import { call, until, type Answer } from '../chaos/http-polls.js';
import { PaymentNodeProcess, type RunEvent } from '../chaos/payment-node-process.js';

const ADMIN_TOKEN = 'restart-test-admin-token-0123456789';
const root = mkdtempSync(join(tmpdir(), 'peer-restart-'));
test.after.always(() => (process.env.KEEP_RESTART_DIRS ? undefined : rmSync(root, { recursive: true, force: true })));

function ok(answer: Answer, status: number, what: string): any {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject;
}

const environment = (dataDir: string, run: number): Record<string, string> => ({
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'info',
  DATA_DIR: dataDir,
  PEER_ADMIN_TOKEN: ADMIN_TOKEN,
  ID_SECRET: 'restart-test-id-secret-0123456789abcdef',
  INDEXER_POLL_MS: '50',
  RELAYER_CHECK_MS: '200',
  TIMER_POLL_MS: '100',
  SWEEP_INTERVAL_MS: '100',
  PAYMENT_NODE_LOG: join(dataDir, '..', `node-${run}.log`),
});

async function start(t: ExecutionContext, dataDir: string, run: number, nodes: PaymentNodeProcess[]): Promise<PaymentNodeProcess> {
  const node = await PaymentNodeProcess.start(run, environment(dataDir, run), [] as RunEvent[], 60_000);
  nodes.push(node);
  t.teardown(() => node.kill().then(() => undefined));
  return node;
}

const logOf = (dataDir: string, run: number) => readFileSync(join(dataDir, '..', `node-${run}.log`), 'utf8');

/** A BASE-tier merchant made over the admin API: its answer, with its API keys. */
async function createMerchant(node: PaymentNodeProcess, name: string): Promise<any> {
  const body = { name, tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' };
  return ok(await call(node.url, 'POST', '/internal/v1/merchants', { headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body }), 201, 'the merchant');
}

/** A live order paid in full over Venmo through the node's simulator, proven, fulfilled on its chain: the fulfilment's hash. */
async function payLive(node: PaymentNodeProcess, liveKey: string, dataDir: string): Promise<{ orderId: string; fulfillTransaction: Hex }> {
  const explain = () =>
    `\n${logOf(dataDir, node.run)
      .split('\n')
      .filter((line) => /"level":(40|50|60)/.test(line))
      .slice(-15)
      .join('\n')}`;
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  const placed = ok(
    await call(node.url, 'POST', '/api/v1/orders', { headers: { 'x-api-key': liveKey }, body: { requestedUsdcAmount: '20', destinationAddress: destination } }),
    201,
    'the order',
  );
  const orderId: string = placed.order.id;
  const customer = (method: string, path: string, body?: unknown) =>
    call(node.url, method, `/api/v1/checkout/orders/${orderId}${path}`, {
      headers: { authorization: `Bearer ${placed.orderToken}` },
      ...(body === undefined ? {} : { body }),
    });
  await until(
    'the seeded deposits to be quoted',
    () => customer('GET', '/quotes?rail=venmo'),
    (answer) => answer.status === 200 && answer.body.responseObject.platforms.length > 0,
    30_000,
    explain,
  );
  const created = ok(await customer('POST', '/payments', { rail: 'venmo' }), 201, 'the payment');
  const signalled = await until(
    'the intent to be signalled',
    async () => ok(await customer('GET', `/payments/${created.id}`), 200, 'the payment read'),
    (payment) => payment.railIdentifier !== null,
    30_000,
    explain,
  );
  const page = node.page!;
  const buyer = new BuyerSimulator(page.simulatorUrl);
  const session = await buyer.signIn('venmo', `restart-buyer-${node.run}`);
  const sent = await buyer.pay(session, {
    payee: signalled.payTo,
    amount: signalled.paymentAmount,
    currency: signalled.currency,
    note: signalled.suggestedMemo,
  });
  const sealed = await sealForPayment(signalled.attestation.serviceUrl, { measurement: page.measurement, signer: page.signer }, session, {
    chainId: page.chainId,
    intentHash: signalled.railIdentifier,
  });
  ok(await customer('POST', `/payments/${created.id}/proof`, { encryptedSessionMaterial: sealed, params: sent.proofParams }), 202, 'the proof');
  const hosted = await until(
    'the order to be fulfilled',
    async () => ok(await call(node.url, 'GET', `/api/v1/orders/${orderId}`), 200, 'the hosted read'),
    (read) => read.order.status === 'FULFILLED',
    30_000,
    explain,
  );
  return { orderId, fulfillTransaction: hosted.currentPayment.fulfillTransaction };
}

test('a node started twice more over its data folder, once after SIGKILL and once after a drain, continues its chain and completes a live payment after each start', async (t) => {
  t.timeout(240_000);
  const dataDir = join(mkdtempSync(join(root, 'same-')), 'data');
  const nodes: PaymentNodeProcess[] = [];

  const first = await start(t, dataDir, 1, nodes);
  const merchant = await createMerchant(first, 'Restart Test');
  const paid = [await payLive(first, merchant.liveApiKey, dataDir)];
  t.regex(logOf(dataDir, 1), /"restored":false[^\n]*"msg":"local chain started"/);
  t.regex(logOf(dataDir, 1), /"msg":"local makers seeded"/);
  const killed = await first.kill();
  t.is(killed.signal, 'SIGKILL');

  const second = await start(t, dataDir, 2, nodes);
  paid.push(await payLive(second, merchant.liveApiKey, dataDir));
  const secondLog = logOf(dataDir, 2);
  t.regex(secondLog, /"restored":true[^\n]*"msg":"local chain started"/, 'the second start continues the kept chain');
  t.notRegex(secondLog, /"msg":"local makers seeded"/, 'the kept chain keeps its makers: none are seeded twice');
  t.notRegex(secondLog, /ReorgTooDeepError|written against another chain/);
  t.is(((await (await fetch(`${second.url}/v1/health-check`)).json()) as { responseObject: { status: string } }).responseObject.status, 'healthy');
  const drained = await second.stop();
  t.is(drained.code, 0, second.stderr);

  const third = await start(t, dataDir, 3, nodes);
  paid.push(await payLive(third, merchant.liveApiKey, dataDir));
  t.regex(logOf(dataDir, 3), /"restored":true[^\n]*"msg":"local chain started"/);

  // Each earlier order is still there, FULFILLED by a transaction the continued chain still holds.
  for (const { orderId, fulfillTransaction } of paid) {
    const hosted = ok(await call(third.url, 'GET', `/api/v1/orders/${orderId}`), 200, 'the hosted read');
    t.is(hosted.order.status, 'FULFILLED');
    t.is(hosted.currentPayment.fulfillTransaction, fulfillTransaction);
  }
  t.is(new Set(paid.map((payment) => payment.fulfillTransaction)).size, 3);
  await third.stop();
});

/** The one error line a start logged containing `marker`, as pino wrote it. */
function saidOnce(t: ExecutionContext, log: string, marker: string): { level: number; msg: string } {
  const lines = log.split('\n').filter((line) => line.includes(marker));
  t.is(lines.length, 1, `said once, in one line: ${marker}`);
  return JSON.parse(lines[0]!) as { level: number; msg: string };
}

test('a node over a data folder whose local chain was replaced or lost says so in one line, is degraded, and refuses live payments at once', async (t) => {
  t.timeout(180_000);
  const dataDir = join(mkdtempSync(join(root, 'replaced-')), 'data');
  const nodes: PaymentNodeProcess[] = [];
  const first = await start(t, dataDir, 1, nodes);
  const merchant = await createMerchant(first, 'Replaced Chain');
  // The indexer has read the chain's blocks into the store before the chain goes: the seeded deposits are quoted.
  const before = ok(
    await call(first.url, 'POST', '/api/v1/orders', {
      headers: { 'x-api-key': merchant.liveApiKey },
      body: { requestedUsdcAmount: '20', destinationAddress: privateKeyToAccount(generatePrivateKey()).address },
    }),
    201,
    'the order',
  );
  const quotes = () =>
    call(first.url, 'GET', `/api/v1/checkout/orders/${before.order.id}/quotes?rail=venmo`, { headers: { authorization: `Bearer ${before.orderToken}` } });
  await until('the seeded deposits to be quoted', quotes, (answer) => answer.status === 200 && answer.body.responseObject.platforms.length > 0, 30_000);
  await first.stop();
  // Another data folder's chain: deployed by the same accounts at the same addresses, in other blocks.
  const elsewhere = join(mkdtempSync(join(root, 'elsewhere-')), 'data');
  await (await start(t, elsewhere, 1, nodes)).stop();

  // The kept chain is gone: no fresh one is deployed in its place, and the start says what is missing.
  await rm(join(dataDir, 'chain'), { recursive: true });
  const second = await start(t, dataDir, 2, nodes);
  const lost = saidOnce(t, logOf(dataDir, 2), 'no longer in');
  t.is(lost.level, 50);
  t.is(
    lost.msg,
    `The data in ${dataDir} was written against a local chain that is no longer in ${join(dataDir, 'chain')}: live payments are off. Way out: restore that folder, or start with a data folder of its own (DATA_DIR=./data-new npm start).`,
  );
  t.notRegex(logOf(dataDir, 2), /"msg":"local chain started"/, 'no chain is deployed in place of the lost one');
  await second.stop();

  // Replaced by another chain: the same addresses, but not the blocks the data was written against.
  await cp(join(elsewhere, 'chain'), join(dataDir, 'chain'), { recursive: true });
  const third = await start(t, dataDir, 3, nodes);
  const replaced = saidOnce(t, logOf(dataDir, 3), 'written against another chain');
  t.is(replaced.level, 50);
  t.regex(replaced.msg, /\(block 1 0x[0-9a-f]{64} then, 0x[0-9a-f]{64} now\)/);
  t.regex(replaced.msg, /Way out: restore .*state\.json, or start with a data folder of its own for this chain \(DATA_DIR=\.\/data-new npm start\)/);
  t.notRegex(logOf(dataDir, 3), /ReorgTooDeepError/, 'the indexer is not run against the wrong chain');

  const health = (await (await fetch(`${third.url}/v1/health-check`)).json()) as any;
  t.is(health.responseObject.status, 'degraded');
  t.true(health.message.includes('written against another chain'), health.message);

  const placed = ok(
    await call(third.url, 'POST', '/api/v1/orders', {
      headers: { 'x-api-key': merchant.liveApiKey },
      body: { requestedUsdcAmount: '20', destinationAddress: privateKeyToAccount(generatePrivateKey()).address },
    }),
    201,
    'the order',
  );
  const asked = Date.now();
  const refused = await call(third.url, 'POST', `/api/v1/checkout/orders/${placed.order.id}/payments`, {
    headers: { authorization: `Bearer ${placed.orderToken}` },
    body: { rail: 'venmo' },
  });
  t.is(refused.status, 503);
  t.is(refused.body.errorCode, 'LIVE_PAYMENTS_UNAVAILABLE');
  t.is((refused.body as { message?: string }).message, 'Payments are unavailable right now; try again shortly');
  t.true(Date.now() - asked < 5_000, 'answered at once, not after a wait');
  await third.stop();
});
