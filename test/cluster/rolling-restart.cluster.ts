/**
 * A rolling restart of the local cluster (deploy/cluster/) under steady load fails no
 * request, loses or doubles no effect, and fires every timer once.
 *
 * Three nodes behind HAProxy, as `npm run cluster` starts them. Through the balancer the
 * test keeps creating orders and reading hosted orders, has a payment in flight (its proof
 * posted while a node drains), and a merchant whose webhook receiver refuses the first
 * attempt of three deliveries (each then waits on a one-minute retry timer). Three
 * payments are left unpaid: their one-minute windows are timers too. Each node is then
 * stopped with SIGTERM (it leaves the rotation, finishes what it holds, hands its shards
 * over, exits 0) and started again, one after another, twice round, so the timers come
 * due while nodes come and go.
 *
 * Then: no request failed; every order created once (the merchant's list counts exactly
 * the orders answered 201); every event delivered and answered 2xx, a few at most twice
 * (a send under way past a rebalancing handover's wait, see below); each refused delivery
 * retried once; each unpaid payment expired once; the paid one settled once, with one
 * fulfilment on chain.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { parseEventLogs } from 'viem';
import { createLogger } from '../../actors/index.js';
import { LocalCluster, type ClusterNode } from '../../deploy/cluster/index.js';
import { orchestratorAbi } from '../../indexer/chain/index.js';
import { ClusterCustomer, send, type CheckoutWorld } from '../support/cluster-customer.js';
import { signaturesValid, startReceiver } from '../support/webhook-receiver.js';
import { SteadyLoad } from './steady-load.js';

const folder = mkdtempSync(join(tmpdir(), 'peer-rolling-'));
let passed = false;
// A failure keeps the cluster's logs to read.
test.after.always(() => {
  if (passed) rmSync(folder, { recursive: true, force: true });
});

const SHARD_COUNT = 64;
const REFUSED_ONCE = 3;
const UNPAID = 3;

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What each node says it holds, asked of the node itself, not through the balancer. */
async function shardsHeld(nodes: ClusterNode[]): Promise<number[]> {
  return Promise.all(
    nodes.map(async (node) => {
      const answer = await send(node.url, 'GET', '/v1/health-check/ready');
      return answer.status === 200 ? (answer.body.responseObject.shardsHeld as number) : -1;
    }),
  );
}

test('a rolling restart through the balancer fails no request, loses no effect, doubles none but a rare webhook repeat, and fires every timer once', async (t) => {
  t.timeout(240_000);
  const logger = createLogger({ level: 'warn' });
  const cluster = await LocalCluster.start({
    folder,
    logger,
    nodeEnv: {
      RATE_LIMIT_PER_MINUTE: '1000000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      PAYMENT_WINDOW_MS: '60000',
      TIMER_POLL_MS: '200',
      SWEEP_INTERVAL_MS: '200',
      SHARD_COUNT: String(SHARD_COUNT),
    },
  });
  t.teardown(() => cluster.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const logs = `(logs in ${folder})`;

  const merchant = (
    await send(cluster.url, 'POST', '/internal/v1/merchants', {
      headers: { authorization: `Bearer ${cluster.adminToken}` },
      body: { name: 'Rolling', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' },
    })
  ).body.responseObject;
  const key: string = merchant.liveApiKey;
  const webhook = (
    await send(cluster.url, 'POST', '/api/v1/webhooks', {
      headers: { 'x-api-key': key },
      body: { url: `${receiver.url}/hooks`, events: ['ORDER_CREATED', 'ORDER_FULFILLED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'PAYMENT_EXPIRED'] },
    })
  ).body.responseObject;
  t.truthy(webhook?.id, 'the webhook endpoint');
  // The first attempts of three ORDER_CREATED deliveries are refused: each waits on its retry timer.
  const refused = new Set<string>();
  receiver.respond = (request) => {
    const id = String(request.headers['x-webhook-id']);
    if (refused.size < REFUSED_ONCE && !refused.has(id) && JSON.parse(request.body).type === 'ORDER_CREATED') {
      refused.add(id);
      return 500;
    }
    return 200;
  };

  const world: CheckoutWorld = {
    url: cluster.url,
    merchantKey: key,
    simulatorUrl: cluster.enclave.simulator!.url,
    trusted: { measurement: cluster.enclave.service.attestationDocument().measurement, signer: cluster.enclave.service.signer },
    chainId: cluster.chain.chainId,
  };
  const customer = new ClusterCustomer(world, 'rolling-buyer');
  const unpaid = [];
  for (let index = 0; index < UNPAID; index++) unpaid.push(await customer.startPayment(await customer.placeOrder('5', `unpaid-${index}-key`)));
  const inFlight = await customer.startPayment(await customer.placeOrder('25', 'in-flight-key'));

  const load = new SteadyLoad(world);
  load.start(2, 2);
  const exits = [];
  let paying: Promise<number> | null = null;
  for (const round of [1, 2]) {
    for (const node of cluster.nodes) {
      // The customer says "I've paid" while the second node drains.
      if (round === 1 && node === cluster.nodes[1]) paying = customer.pay(inFlight);
      exits.push({ node: node.name, round, ...(await cluster.restartNode(node)) });
      await until(
        'the shards to be spread over every node again',
        () => shardsHeld(cluster.nodes),
        (held) => held.every((count) => count > 0) && held.reduce((a, b) => a + b) === SHARD_COUNT,
        30_000,
      );
    }
  }
  await load.stop();
  t.true(load.requests > 200, `steady load: ${load.requests} requests`);
  t.deepEqual(load.failures, [], `failed requests ${logs}`);
  t.deepEqual(
    exits.map(({ code, signal }) => ({ code, signal })),
    exits.map(() => ({ code: 0, signal: null })),
    'every node drained and exited 0',
  );

  // The payment in flight settled, once, with one fulfilment on chain.
  await paying;
  await customer.fulfilled(inFlight, 60_000);
  const fulfilments = parseEventLogs({
    abi: orchestratorAbi,
    eventName: 'IntentFulfilled',
    logs: await cluster.chain.publicClient.getLogs({ address: cluster.chain.orchestrator, fromBlock: cluster.chain.deployBlock }),
  }).filter((log) => log.args.intentHash?.toLowerCase() === inFlight.intentHash.toLowerCase());
  t.is(fulfilments.length, 1, 'one fulfilment on chain');

  // Every order created once: the merchant's list counts exactly those answered 201.
  const orders = UNPAID + 1 + load.created.length;
  const listed = await send(cluster.url, 'GET', '/api/v1/merchants/me/orders?limit=1', { headers: { 'x-api-key': key } });
  t.is(listed.body.responseObject.total, orders, 'the merchant lists each order once');

  // Timers: each unpaid payment's window ran out once; each refused delivery was retried once.
  await until(
    'the unpaid payments to expire and every delivery to be answered',
    async () => receiver.delivered(),
    (delivered) =>
      delivered.filter((event) => event.type === 'PAYMENT_EXPIRED').length >= UNPAID &&
      delivered.filter((event) => event.type === 'ORDER_CREATED').length >= orders &&
      delivered.some((event) => event.type === 'ORDER_FULFILLED'),
    120_000,
  );
  for (const payment of unpaid) {
    const read = await customer.checkout(payment, 'GET', `/payments/${payment.paymentId}`);
    t.is(read.body.responseObject.status, 'EXPIRED', `payment ${payment.paymentId}`);
  }
  const answeredById = new Map<string, { ok: number; refused: number; type: string; subject: string }>();
  for (const request of receiver.requests) {
    t.deepEqual(signaturesValid(request, webhook.secret), { peer: true, standard: true });
    const body = JSON.parse(request.body);
    const id = String(request.headers['x-webhook-id']);
    const entry = answeredById.get(id) ?? { ok: 0, refused: 0, type: body.type, subject: JSON.stringify(body.data).slice(0, 80) };
    if (request.answered === 200) entry.ok++;
    else if (request.answered === 500) entry.refused++;
    answeredById.set(id, entry);
  }
  const entries = [...answeredById.values()];
  t.deepEqual(
    entries.filter((entry) => entry.ok === 0),
    [],
    'every event answered 2xx',
  );
  // Not yet exactly once: a send still under way when its shard is handed over to a node that joined, past the
  // handover's wait (half the lease TTL), is sent again by the new owner. Seen as 0 to 3 of ~1,900 deliveries under
  // this load; each a repeat of the same id and body, which receivers drop (docs/webhooks.md). Held to one repeat.
  const repeated = entries.filter((entry) => entry.ok > 1);
  t.deepEqual(
    repeated.filter((entry) => entry.ok > 2),
    [],
    'no event answered 2xx more than twice',
  );
  t.true(repeated.length <= 5, `${repeated.length} events sent again across a handover`);
  t.log(`${repeated.length} events answered 2xx twice`);
  t.is(entries.filter((entry) => entry.refused === 1).length, REFUSED_ONCE, 'each refused delivery retried once after its timer');
  const byType = (type: string) => entries.filter((entry) => entry.type === type).length;
  t.is(byType('ORDER_CREATED'), orders, 'one ORDER_CREATED per order');
  t.is(byType('PAYMENT_EXPIRED'), UNPAID, 'one PAYMENT_EXPIRED per unpaid payment');
  t.is(byType('PAYMENT_SETTLED'), 1);
  t.is(byType('ORDER_FULFILLED'), 1);
  passed = true;
  t.log(`${load.requests} requests, ${load.created.length} orders created under load, ${exits.length} restarts, ${receiver.requests.length} deliveries`);
});
