/**
 * The documented limits hold for a cluster as a whole: three nodes over the shared NATS
 * server, each with its own client of one store served over a loopback socket (the
 * local stand-in for MongoDB), as `npm run cluster` runs them. Requests spread
 * round-robin over the three, as a balancer would spread them, get the limit once in a
 * window, not three times, and past it every node answers 429; the window ends on the
 * nodes' clock, which the test moves.
 */
import test from 'ava';
import { EmbeddedStore } from '../../actors/store/embedded-store.js';
import { SocketStore, SocketStoreServer } from '../../actors/store/socket/index.js';
import type { NatsTransport } from '../../actors/transport/nats-transport.js';
import { ACTIONS_PER_MINUTE } from '../../gateway/actions/action-operations.js';
import { REMEDIATION_READS_PER_MINUTE } from '../../gateway/payments/payment-operations.js';
import { MAX_CODES_PER_WINDOW } from '../../machines/cashout-login/index.js';
import { startTestGateway, type ApiResponse, type TestGateway } from '../support/gateway.js';
import { signIn } from '../support/maker-sign-in.js';
import { SHARED_NATS_URL, eventually, removeNamespace, uniqueNamespace } from '../support/nats.js';

const PER_ADDRESS = 12;
const HISTORY_PER_MINUTE = 3;
const SHARDS = 6;

interface Cluster {
  nodes: TestGateway[];
  server: SocketStoreServer;
  clients: SocketStore[];
  namespace: string;
}

let cluster: Cluster | undefined;

test.before(async () => {
  const namespace = uniqueNamespace('limits');
  const server = await SocketStoreServer.start({ store: new EmbeddedStore() });
  const clients: SocketStore[] = [];
  const nodes: TestGateway[] = [];
  for (let i = 0; i < 3; i++) {
    const client = await SocketStore.connect({ port: server.port });
    clients.push(client);
    nodes.push(
      await startTestGateway(
        {
          NODE_ID: `limits-n${i}`,
          NATS_URL: SHARED_NATS_URL,
          NATS_NAMESPACE: namespace,
          SHARD_COUNT: SHARDS,
          LEASE_TTL_MS: 1_500,
          ID_SECRET: 'cluster-limits-test-secret-0123456789abcdef',
          RATE_LIMIT_PER_MINUTE: PER_ADDRESS,
          TRANSACTION_HISTORY_PER_MINUTE: HISTORY_PER_MINUTE,
          TRUSTED_PROXIES: ['127.0.0.1'],
        },
        { store: client },
      ),
    );
  }
  cluster = { nodes, server, clients, namespace };
  await eventually(() => nodes.reduce((held, node) => held + owned(node), 0) === SHARDS && nodes.every((node) => owned(node) > 0), 'every shard held once');
});

test.after.always(async () => {
  if (!cluster) return;
  await Promise.all(cluster.nodes.map((node) => node.stop()));
  await Promise.all(cluster.clients.map((client) => client.close()));
  await cluster.server.close();
  await removeNamespace(cluster.namespace);
});

function owned(node: TestGateway): number {
  const shards = node.node.transport.ownedShards();
  return shards === 'all' ? 0 : shards.size;
}

function nodes(): TestGateway[] {
  if (!cluster) throw new Error('the cluster did not start');
  return cluster.nodes;
}

/** Every node's clock a window further on: every window the limits opened so far is closed. */
async function nextWindow(): Promise<void> {
  for (const node of nodes()) await node.clock.advance(60_000);
}

/** Sends `count` requests, the n-th through node n mod 3; `send` names the client address (forwarded by the trusted balancer). */
async function roundRobin(count: number, send: (node: TestGateway, n: number) => Promise<ApiResponse>): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  for (let n = 0; n < count; n++) answers.push(await send(nodes()[n % 3]!, n));
  return answers;
}

const from = (address: string) => ({ 'x-forwarded-for': address });
/** A different client address for each request, so that only the limit under test can refuse. */
const spread = (n: number) => from(`203.0.113.${(n % 200) + 1}`);
const passed = (answers: ApiResponse[]) => answers.filter((answer) => answer.status !== 429).length;

test.serial('one client address gets its 12 requests a minute from the three nodes together, then 429 from each, until the window ends', async (t) => {
  await nextWindow();
  const answers = await roundRobin(3 * PER_ADDRESS, (node) => node.request('GET', '/v1/health-check', { headers: from('198.51.100.23') }));
  t.is(passed(answers), PER_ADDRESS, 'the limit once, not once per node');
  t.deepEqual(
    answers.slice(0, PER_ADDRESS).map((answer) => answer.headers.get('x-rate-limit-remaining')),
    Array.from({ length: PER_ADDRESS }, (_, i) => String(PER_ADDRESS - 1 - i)),
    'one count, whichever node answered',
  );
  for (const refused of answers.slice(PER_ADDRESS)) {
    t.is(refused.status, 429);
    t.deepEqual(refused.body, { success: false, message: 'Too many requests', responseObject: null, statusCode: 429 });
    t.is(refused.headers.get('x-rate-limit-remaining'), '0');
    t.regex(refused.headers.get('x-retry-after') ?? '', /^\d+$/);
  }
  const resetsAt = new Set(answers.map((answer) => answer.headers.get('x-rate-limiter-resets-at')));
  t.is(resetsAt.size, 1, 'every node names the same reset: the window the first request opened');
  t.is([...resetsAt][0], new Date(nodes()[0]!.clock.now() + 60_000).toISOString());

  await nextWindow();
  for (const node of nodes())
    t.is((await node.request('GET', '/v1/health-check', { headers: from('198.51.100.23') })).status, 200, 'a new window on every node');
});

test.serial('a merchant’s 30 actions and 120 remediation reads a minute are counted across the three nodes', async (t) => {
  const merchant = await nodes()[0]!.createMerchant();
  await nextWindow();
  const action = '/api/v1/merchants/me/orders/ord_cluster_limits/payments/pay_cluster_limits/extend';
  const actions = await roundRobin(3 * ACTIONS_PER_MINUTE, (node, n) =>
    node.request('POST', action, { key: merchant.liveKey, body: { idempotencyKey: `cluster-limit-${n}` }, headers: spread(n) }),
  );
  t.is(passed(actions), ACTIONS_PER_MINUTE);
  t.deepEqual(
    actions.slice(-3).map((answer) => answer.status),
    [429, 429, 429],
    'every node refuses once the budget is spent',
  );

  const reads = await roundRobin(3 * REMEDIATION_READS_PER_MINUTE, (node, n) =>
    node.request('GET', '/api/v1/merchants/me/orders/ord_cluster_limits/payments', { key: merchant.liveKey, headers: spread(n) }),
  );
  t.is(passed(reads), REMEDIATION_READS_PER_MINUTE);
  t.deepEqual(
    reads.slice(-3).map((answer) => answer.status),
    [429, 429, 429],
  );
});

test.serial('a wallet’s transaction-history reads are counted across the three nodes, whichever session sends them', async (t) => {
  const maker = await signIn(nodes()[0]!);
  const again = await signIn(nodes()[1]!, maker.account);
  await nextWindow();
  const answers = await roundRobin(3 * HISTORY_PER_MINUTE, (node, n) =>
    node.request('GET', '/v2/transaction-history/base/usdc', { headers: { ...(n % 2 ? maker.headers : again.headers), ...spread(n) } }),
  );
  t.deepEqual(
    answers.map((answer) => answer.status),
    [...Array(HISTORY_PER_MINUTE).fill(503), ...Array(2 * HISTORY_PER_MINUTE).fill(429)],
    'no chain on these nodes: the reads the budget allows answer 503, the rest 429',
  );
});

test.serial('the dashboard’s five code requests per address in 15 minutes are counted across the three nodes', async (t) => {
  const answers = await roundRobin(3 * MAX_CODES_PER_WINDOW, (node, n) =>
    node.request('POST', '/api/v1/dashboard/sign-in/code', { body: { email: 'nobody@cluster.example' }, headers: spread(n) }),
  );
  t.deepEqual(
    answers.map((answer) => answer.status),
    [...Array(MAX_CODES_PER_WINDOW).fill(202), ...Array(2 * MAX_CODES_PER_WINDOW).fill(429)],
  );
});

test.serial('with the store out of reach each node allows its share, a third of the limit, so the cluster still allows the limit once', async (t) => {
  const transports = nodes().map((node) => node.node.transport as NatsTransport);
  await eventually(() => transports.every((transport) => transport.liveNodes() === 3), 'every node counting three live nodes');
  await nextWindow();
  cluster!.server.disconnectAll({ refuse: true });
  try {
    const answers = await roundRobin(3 * PER_ADDRESS, (node) => node.request('GET', '/v1/health-check', { headers: from('198.51.100.99') }));
    t.is(passed(answers), PER_ADDRESS, 'four a node, as the store would have allowed twelve in all');
    t.deepEqual(
      answers.slice(-3).map((answer) => answer.status),
      [429, 429, 429],
    );
  } finally {
    cluster!.server.accept();
  }
});
