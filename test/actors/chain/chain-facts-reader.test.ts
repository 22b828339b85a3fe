import test from 'ava';
import { EmbeddedStore, TestClock, createLogger, type Store } from '../../../actors/index.js';
import { CHAIN_FACTS_ROLE, ChainFacts } from '../../../actors/chain/chain-facts.js';
import type { IndexerServiceClient } from '../../../proto/gen/peer/indexer/v1/indexer.js';
import { bob, mint, startTestChain } from '../../support/chain.js';
import { watcherKind, type WatcherView } from '../../support/fact-watcher-kind.js';
import { interceptedStore } from '../../support/intercepted-store.js';
import { LocalCluster } from '../../support/local-cluster.js';
import { startTestSystem } from '../../support/test-node.js';

const USDC = 1_000_000n;
const SHARDS = 16;
const w1 = { kind: 'watcher', id: 'w1' };

/** The store, with every cursor value written recorded in order. */
function recordingCursors(inner: Store, written: number[]): Store {
  return interceptedStore(inner, (spec, collection) =>
    spec.name !== 'chain_cursors'
      ? {}
      : {
          replaceOne: async (filter, doc) => {
            const matched = await collection.replaceOne(filter, doc);
            if (matched) written.push(Number(doc.afterSequence));
            return matched;
          },
          updateOne: async (filter, update) => {
            const matched = await collection.updateOne(filter, update);
            if (matched) written.push(Number(update.$set?.afterSequence));
            return matched;
          },
        },
  );
}

/** The indexer client, counting the fact streams opened through it. */
function countingStreams(client: IndexerServiceClient, opened: { count: number }): IndexerServiceClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== 'streamFacts' || typeof value !== 'function') return typeof value === 'function' ? value.bind(target) : value;
      return (...args: unknown[]) => {
        opened.count++;
        return (value as (...rest: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

test('only the node holding the chain-facts lease reads facts; the next holder resumes from the cursor', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const cluster = new LocalCluster(SHARDS);
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const a = cluster.transport();
  const b = cluster.transport();
  const nodeA = await startTestSystem({ kinds: [watcherKind], store, clock, transport: a });
  const nodeB = await startTestSystem({ kinds: [watcherKind], store, clock, transport: b });
  for (let shard = 0; shard < SHARDS; shard++) cluster.assign(shard, a);
  const logger = createLogger({ level: 'silent' });
  const streamsA = { count: 0 };
  const streamsB = { count: 0 };
  const readerA = new ChainFacts({ system: nodeA.system, store, client: countingStreams(chain.grpc, streamsA), logger, minRetryMs: 10 });
  const readerB = new ChainFacts({ system: nodeB.system, store, client: countingStreams(chain.grpc, streamsB), logger, minRetryMs: 10 });
  await readerA.start();
  await readerB.start();
  t.teardown(async () => {
    await readerA.stop();
    await readerB.stop();
  });
  await nodeA.system.askAt(w1, { type: 'OPEN' });
  await readerB.subscribe({ address: bob.address }, w1);

  await mint(chain, bob.address, 1n * USDC);
  await mint(chain, bob.address, 2n * USDC);
  await readerA.delivered(2);
  t.true(readerA.reading);
  t.false(readerB.reading);
  t.is(streamsB.count, 0, 'the node without the lease never opened the stream');

  cluster.assign(cluster.shardOf(CHAIN_FACTS_ROLE), b);
  await mint(chain, bob.address, 3n * USDC);
  await readerB.delivered(3);
  t.false(readerA.reading);
  t.true(readerB.reading);
  const taken = ((await nodeA.system.documents('watcher').findOne({ _id: 'w1' }))!.view as unknown as WatcherView).taken;
  t.is(taken.length, 3);
  t.is(new Set(taken).size, 3);
});

test('the cursor only moves forward: a reader that finds it moved resumes from where it is', async (t) => {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const written: number[] = [];
  const store = recordingCursors(new EmbeddedStore(), written);
  const { system } = await startTestSystem({ kinds: [watcherKind], store });
  const reader = new ChainFacts({ system, store, client: chain.grpc, logger: createLogger({ level: 'silent' }), minRetryMs: 10 });
  await reader.start();
  t.teardown(() => reader.stop());
  await system.askAt(w1, { type: 'OPEN' });
  await reader.subscribe({ address: bob.address }, w1);
  await mint(chain, bob.address, 1n * USDC);
  await reader.delivered(1);

  // Another reader (a node that held the lease meanwhile) has already taken facts 2 and 3.
  const cursors = await store.collection({ name: 'chain_cursors', indexes: [] });
  await cursors.replaceOne({ _id: 'chain-facts' }, { _id: 'chain-facts', afterSequence: 3 });
  await mint(chain, bob.address, 2n * USDC);
  await mint(chain, bob.address, 3n * USDC);
  await mint(chain, bob.address, 4n * USDC);
  await reader.delivered(4);

  t.deepEqual(
    written,
    [...written].sort((x, y) => x - y),
    `cursor writes never go back: ${written.join(', ')}`,
  );
  t.is((await cursors.findOne({ _id: 'chain-facts' }))!.afterSequence, 4);
});
