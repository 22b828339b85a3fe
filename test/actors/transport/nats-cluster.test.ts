import test from 'ava';
import { EmbeddedStore, TestClock, createLogger, loadConfig, type Config } from '../../../actors/index.js';
import { startNode, type PlatformNode } from '../../../deploy/node.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { SHARED_NATS_URL, eventually, removeNamespace, uniqueNamespace } from '../../support/nats.js';

const SHARDS = 12;

function clusterConfig(namespace: string, nodeId: string, leaseTtlMs = 1500): Config {
  return {
    ...loadConfig({}),
    NODE_ID: nodeId,
    PORT: 0,
    LOG_LEVEL: 'silent',
    NATS_URL: SHARED_NATS_URL,
    NATS_NAMESPACE: namespace,
    SHARD_COUNT: SHARDS,
    LEASE_TTL_MS: leaseTtlMs,
    ASK_TIMEOUT_MS: 30_000,
    ATTEMPT_TIMEOUT_MS: 1_000,
    TIMER_POLL_MS: 200,
  };
}

async function startCluster(namespace: string, count: number, store: EmbeddedStore, clock: TestClock, leaseTtlMs?: number): Promise<PlatformNode[]> {
  const nodes: PlatformNode[] = [];
  for (let i = 0; i < count; i++) {
    nodes.push(
      await startNode({
        config: clusterConfig(namespace, `n${i}`, leaseTtlMs),
        kinds: [counterKind()],
        store,
        clock,
        logger: createLogger({ level: 'silent' }),
      }),
    );
  }
  return nodes;
}

function owned(node: PlatformNode): number[] {
  const shards = node.transport.ownedShards();
  return shards === 'all' ? [] : [...shards];
}

async function covered(nodes: PlatformNode[]): Promise<void> {
  await eventually(() => {
    const all = nodes.flatMap(owned);
    return new Set(all).size === SHARDS && all.length === SHARDS && nodes.every((node) => owned(node).length > 0);
  }, 'every shard held by exactly one live node');
}

const counter = (id: string) => ({ kind: 'counter', id });

test.serial('three nodes over NATS: commands through any node reach the owner; a killed node’s shards and timers move to the others', async (t) => {
  t.timeout(120_000);
  const namespace = uniqueNamespace('cluster');
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const nodes = await startCluster(namespace, 3, store, clock);
  try {
    await covered(nodes);
    const ids = Array.from({ length: 30 }, (_, i) => `k${i}`);
    await Promise.all(ids.map((id, i) => nodes[i % 3]!.system.askAt(counter(id), { type: 'OPEN' })));
    for (const [i, id] of ids.entries()) {
      const reply = (await nodes[(i + 1) % 3]!.system.askAt(counter(id), { type: 'ADD', n: -1000 - i }).catch(
        (error: { code?: string }) => error.code,
      )) as unknown;
      t.is(reply, 'INVALID_AMOUNT', 'a rejection crosses the wire as its typed error');
    }

    const victim = nodes[0]!;
    const survivors = nodes.slice(1);
    const victimShards = new Set(owned(victim));
    const { shardOf } = await import('../../../actors/address.js');
    const victimActors = ids.filter((id) => victimShards.has(shardOf(id, SHARDS)));
    t.true(victimActors.length > 0, 'the victim serves some actors');
    for (const id of victimActors) await survivors[0]!.system.askAt(counter(id), { type: 'ARM', ms: 60_000 });

    const acknowledged = new Map<number, string>();
    let killed = false;
    const send = async (k: number): Promise<void> => {
      const id = ids[k % ids.length]!;
      const via = killed ? survivors[k % 2]! : nodes[k % 3]!;
      try {
        await via.system.askAt(counter(id), { type: 'ADD', n: k }, { messageId: `cmd-${k}` });
      } catch {
        // The node it went through died: retry through a live one with the same message id, as a gateway client would.
        await survivors[k % 2]!.system.askAt(counter(id), { type: 'ADD', n: k }, { messageId: `cmd-${k}` });
      }
      acknowledged.set(k, id);
    };
    const load: Promise<void>[] = [];
    for (let k = 0; k < 600; k++) {
      load.push(send(k));
      if (k === 300) {
        killed = true;
        await victim.kill();
      }
      if (k % 20 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(load);
    t.is(acknowledged.size, 600);

    await covered(survivors);
    for (const shard of victimShards)
      t.true(
        survivors.some((node) => owned(node).includes(shard)),
        `shard ${shard} moved`,
      );

    const views = new Map<string, CounterView>();
    for (const id of ids)
      views.set(id, (await store.collection({ name: 'actors_counter', indexes: [] }).then((c) => c.findOne({ _id: id })))!.view as unknown as CounterView);
    for (const [k, id] of acknowledged) {
      t.is(views.get(id)!.applied.filter((n) => n === k).length, 1, `command ${k} is in ${id} exactly once`);
    }
    t.is(
      [...views.values()].reduce((sum, view) => sum + view.applied.length, 0),
      600,
      'nothing else was applied',
    );

    await clock.advance(60_000);
    for (const id of victimActors) {
      const doc = await survivors[0]!.system.documents('counter').findOne({ _id: id });
      t.is((doc!.view as unknown as CounterView).rings, 1, `${id}'s timer fired on a survivor`);
    }
  } finally {
    await Promise.allSettled(nodes.map((node) => node.stop()));
    await removeNamespace(namespace);
  }
});

test.serial('a node that drains hands its shards back at once, and a shard nobody serves times out the ask', async (t) => {
  t.timeout(60_000);
  const namespace = uniqueNamespace('drain');
  const store = new EmbeddedStore();
  const clock = new TestClock();
  // A TTL well above the observer's ask timeout: b's leases must still stand while the ask waits.
  const [a, b] = await startCluster(namespace, 2, store, clock, 4_500);
  try {
    await covered([a!, b!]);
    await a!.stop();
    // Released leases are deleted, so b takes them on its next round (a third of the TTL) rather than after the TTL.
    await eventually(() => owned(b!).length === SHARDS, 'b holding every shard', 4_000);
    await b!.system.askAt(counter('after-drain'), { type: 'OPEN' });
    await b!.system.askAt(counter('after-drain'), { type: 'ADD', n: 3 });
    t.deepEqual(((await b!.system.documents('counter').findOne({ _id: 'after-drain' }))!.view as unknown as CounterView).applied, [3]);

    await b!.kill();
    const lonely = await startNode({
      config: { ...clusterConfig(namespace, 'observer', 4_500), ASK_TIMEOUT_MS: 1_500, SHARD_COUNT: SHARDS },
      kinds: [counterKind()],
      store,
      clock,
      logger: createLogger({ level: 'silent' }),
    });
    try {
      // b's leases have not lapsed yet and nobody answers on them.
      const target = Array.from({ length: 100 }, (_, i) => `x${i}`).find((id) => !owned(lonely).includes(shardOfId(id)))!;
      await t.throwsAsync(lonely.system.askAt(counter(target), { type: 'OPEN' }), { name: 'AskTimeoutError' });
    } finally {
      await lonely.stop();
    }
  } finally {
    await Promise.allSettled([a!.stop(), b!.stop()]);
    await removeNamespace(namespace);
  }
});

import { shardOf } from '../../../actors/address.js';
const shardOfId = (id: string) => shardOf(id, SHARDS);

test.serial('a shard handed back is taken at once, and a node joining gets its share at once, not at the next round', async (t) => {
  t.timeout(60_000);
  const namespace = uniqueNamespace('handover');
  t.teardown(() => removeNamespace(namespace));
  const store = new EmbeddedStore();
  const clock = new TestClock();
  // Rounds every 10 s: what happens within 2 s was woken by the change, not by a round.
  const leaseTtlMs = 30_000;
  const [first, second] = await startCluster(namespace, 2, store, clock, leaseTtlMs);
  t.teardown(() => first!.kill());
  await covered([first!, second!]);

  const stopped = Date.now();
  await second!.stop();
  await eventually(() => owned(first!).length === SHARDS, 'the survivor to take every shard handed back', 2_000);
  t.true(Date.now() - stopped < 2_000, `taken ${Date.now() - stopped} ms after the stop`);

  const third = await startNode({
    config: clusterConfig(namespace, 'n2', leaseTtlMs),
    kinds: [counterKind()],
    store,
    clock,
    logger: createLogger({ level: 'silent' }),
  });
  t.teardown(() => third.kill());
  const joined = Date.now();
  await eventually(() => owned(third).length === SHARDS / 2 && owned(first!).length === SHARDS / 2, 'the new node to get its share', 3_000);
  t.true(Date.now() - joined < 3_000, `shared ${Date.now() - joined} ms after the join`);
  t.deepEqual(
    [...owned(first!), ...owned(third)].sort((a, b) => a - b),
    [...Array(SHARDS).keys()],
    'every shard held once',
  );
});
