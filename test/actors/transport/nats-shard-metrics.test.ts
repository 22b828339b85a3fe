/**
 * The series ShardUnserved reads (deploy/observability/alerts.yml): every node of a
 * cluster reports the shard count and the leases it holds, so
 * `max(peer_shard_count) - sum(peer_shards_held)` over the live nodes is the shards no
 * node serves: 0 while the cluster covers them, more once a node dies, 0 again once the
 * others take its shards.
 */
import test from 'ava';
import { EmbeddedStore, TestClock, createLogger, loadConfig } from '../../../actors/index.js';
import type { PrometheusMetrics } from '../../../actors/metrics/index.js';
import { startNode, type PlatformNode } from '../../../deploy/node.js';
import { counterKind } from '../../support/counter-kind.js';
import { SHARED_NATS_URL, eventually, removeNamespace, uniqueNamespace } from '../../support/nats.js';
import { parseExposition, sampleValue } from '../../support/prometheus-text.js';

const SHARDS = 12;

async function gauges(node: PlatformNode): Promise<{ count: number; held: number }> {
  const families = parseExposition(await (node.system.metrics as PrometheusMetrics).metrics());
  return { count: sampleValue(families, 'peer_shard_count')!, held: sampleValue(families, 'peer_shards_held')! };
}

async function unserved(nodes: PlatformNode[]): Promise<number> {
  const read = await Promise.all(nodes.map(gauges));
  return Math.max(...read.map((each) => each.count)) - read.reduce((sum, each) => sum + each.held, 0);
}

test.serial('shards no node serves: none while two nodes cover them, some when one dies, none once the other takes them', async (t) => {
  t.timeout(60_000);
  const namespace = uniqueNamespace('shardmetrics');
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const nodes: PlatformNode[] = [];
  t.teardown(async () => {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    await removeNamespace(namespace);
  });
  for (const id of ['m0', 'm1'])
    nodes.push(
      await startNode({
        config: {
          ...loadConfig({}),
          NODE_ID: id,
          PORT: 0,
          LOG_LEVEL: 'silent',
          NATS_URL: SHARED_NATS_URL,
          NATS_NAMESPACE: namespace,
          SHARD_COUNT: SHARDS,
          LEASE_TTL_MS: 1500,
          INDEXER_ENABLED: false,
          ENCLAVE_ENABLED: false,
          LOCAL_MAKERS: false,
        },
        kinds: [counterKind()],
        store,
        clock,
        logger: createLogger({ level: 'silent' }),
      }),
    );
  const [victim, survivor] = nodes as [PlatformNode, PlatformNode];
  t.deepEqual((await gauges(victim)).count, SHARDS);
  await eventually(async () => (await unserved(nodes)) === 0 && (await gauges(victim)).held > 0, 'the two nodes cover every shard');

  const held = (await gauges(victim)).held;
  await victim.kill();
  t.is(await unserved([survivor]), held, "the dead node's shards are served by no one until their leases lapse");
  await eventually(async () => (await unserved([survivor])) === 0, 'the survivor takes them');
  t.is((await gauges(survivor)).held, SHARDS);
});
