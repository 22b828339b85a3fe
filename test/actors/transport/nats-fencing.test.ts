import test from 'ava';
import { EmbeddedStore, TestClock, createLogger, loadConfig, type Config } from '../../../actors/index.js';
import { startNode, type PlatformNode } from '../../../deploy/node.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { SHARED_NATS_URL, eventually, removeNamespace, uniqueNamespace } from '../../support/nats.js';
import { slowStore } from '../../support/slow-store.js';
import { TcpProxy } from '../../support/tcp-proxy.js';

const SHARDS = 8;
const counter = (id: string) => ({ kind: 'counter', id });

function config(namespace: string, nodeId: string, natsUrl: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({}),
    NODE_ID: nodeId,
    PORT: 0,
    LOG_LEVEL: 'silent',
    NATS_URL: natsUrl,
    NATS_NAMESPACE: namespace,
    SHARD_COUNT: SHARDS,
    LEASE_TTL_MS: 1500,
    ASK_TIMEOUT_MS: 60_000,
    ATTEMPT_TIMEOUT_MS: 1_000,
    TIMER_POLL_MS: 100,
    INDEXER_ENABLED: false,
    ENCLAVE_ENABLED: false,
    ...overrides,
  };
}

const held = (node: PlatformNode): number[] => {
  const shards = node.transport.ownedShards();
  return shards === 'all' ? [] : [...shards];
};

test.serial('over NATS, 300 asks retried while their turns are queued each add exactly once', async (t) => {
  t.timeout(120_000);
  const namespace = uniqueNamespace('once');
  t.teardown(() => removeNamespace(namespace));
  const store = slowStore(new EmbeddedStore(), 3);
  const clock = new TestClock();
  const nodes: PlatformNode[] = [];
  t.teardown(() => Promise.all(nodes.map((node) => node.stop())));
  for (const id of ['a', 'b']) {
    nodes.push(
      await startNode({
        config: config(namespace, id, SHARED_NATS_URL, { ATTEMPT_TIMEOUT_MS: 50 }),
        kinds: [counterKind()],
        store,
        clock,
        logger: createLogger({ level: 'silent' }),
      }),
    );
  }
  await eventually(() => held(nodes[0]!).length + held(nodes[1]!).length === SHARDS && held(nodes[1]!).length > 0, 'both nodes hold shards');

  await nodes[0]!.system.askAt(counter('hot'), { type: 'OPEN' });
  const asks = 300;
  await Promise.all(Array.from({ length: asks }, (_, i) => nodes[i % 2]!.system.askAt(counter('hot'), { type: 'ADD', n: 1 }, { messageId: `hot-${i}` })));
  const view = (await nodes[0]!.system.documents('counter').findOne({ _id: 'hot' }))!.view as unknown as CounterView;
  t.log(`${asks} asks over NATS added ${view.total}`);
  t.is(view.total, String(asks));
});

test.serial('a node cut off from NATS stops serving its shards before another node can take them, and rejoins after', async (t) => {
  t.timeout(120_000);
  const namespace = uniqueNamespace('fence');
  t.teardown(() => removeNamespace(namespace));
  const proxy = await TcpProxy.start(4222);
  t.teardown(() => proxy.close());
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const logger = createLogger({ level: 'silent' });
  const cut = await startNode({ config: config(namespace, 'cut', proxy.url), kinds: [counterKind()], store, clock, logger });
  const peer = await startNode({ config: config(namespace, 'peer', SHARED_NATS_URL), kinds: [counterKind()], store, clock, logger });
  t.teardown(async () => {
    await peer.stop();
    await cut.kill();
  });
  await eventually(() => held(cut).length > 0 && held(cut).length + held(peer).length === SHARDS, 'both nodes hold shards');
  const cutShards = held(cut);

  let overlap: number[] = [];
  const watch = setInterval(() => {
    const both = held(cut).filter((shard) => peer.transport.fence(shard) !== null);
    if (both.length > 0) overlap = both;
  }, 5);
  t.teardown(() => clearInterval(watch));

  proxy.blackhole();
  await eventually(() => held(cut).length === 0, 'the cut node gives up its shards', 10_000);
  t.true(cutShards.every((shard) => cut.transport.fence(shard) === null));
  await eventually(() => held(peer).length === SHARDS, 'the peer takes every shard', 15_000);
  t.deepEqual(overlap, [], 'no shard was ever held validly by both nodes at once');

  proxy.restore();
  await eventually(() => held(cut).length > 0 && held(cut).length + held(peer).length === SHARDS, 'the cut node rejoins', 20_000);
  clearInterval(watch);
  t.deepEqual(overlap, []);
});
