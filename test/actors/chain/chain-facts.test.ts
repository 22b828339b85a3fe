import test from 'ava';
import { createLogger } from '../../../actors/index.js';
import { ChainFacts } from '../../../actors/chain/chain-facts.js';
import { alice, bob, carol, createDeposit, mint, readFacts, startTestChain, transfer, watch, type TestChain } from '../../support/chain.js';
import { eventually } from '../../support/nats.js';
import { watcherKind, type WatcherView } from '../../support/fact-watcher-kind.js';
import { startTestSystem, type TestSystem } from '../../support/test-node.js';

const USDC = 1_000_000n;
const w1 = { kind: 'watcher', id: 'w1' };
const w2 = { kind: 'watcher', id: 'w2' };

async function setUp(): Promise<{ chain: TestChain; node: TestSystem; consumer: () => ChainFacts }> {
  const chain = await startTestChain();
  const node = await startTestSystem({ kinds: [watcherKind] });
  const consumer = () =>
    new ChainFacts({ system: node.system, store: node.store, client: chain.grpc, logger: createLogger({ level: 'silent' }), minRetryMs: 10 });
  await node.system.askAt(w1, { type: 'OPEN' });
  await node.system.askAt(w2, { type: 'OPEN' });
  return { chain, node, consumer };
}

async function view(node: TestSystem, address: { kind: string; id: string }): Promise<WatcherView> {
  return (await node.system.documents(address.kind).findOne({ _id: address.id }))!.view as unknown as WatcherView;
}

test('facts reach the actors subscribed to their subjects, once each and in order', async (t) => {
  const { chain, node, consumer } = await setUp();
  t.teardown(() => chain.stop());
  const facts = consumer();
  await facts.start();
  t.teardown(() => facts.stop());
  await facts.subscribe({ address: bob.address }, w1);
  await facts.subscribe({ address: bob.address.toLowerCase() }, w1);
  await facts.subscribe({ depositId: '1' }, w2);

  await mint(chain, alice.address, 100n * USDC);
  await transfer(chain, alice, bob.address, 5n * USDC);
  await transfer(chain, carol, bob.address, 0n);
  await createDeposit(chain, alice, 50n * USDC);
  const log = await readFacts(chain, 0, 3);
  await facts.delivered(3);

  const bobs = log.filter((fact) => fact.event?.$case === 'usdcTransfer');
  t.deepEqual(
    (await view(node, w1)).taken,
    bobs.map((fact) => fact.id),
    'bob’s transfers, each once, though subscribed twice',
  );
  t.deepEqual((await view(node, w2)).cases, ['depositReceived']);
});

test('a consumer restarted behind its cursor redelivers with the same message ids, and actors take nothing twice', async (t) => {
  const { chain, node, consumer } = await setUp();
  t.teardown(() => chain.stop());
  let facts = consumer();
  await facts.start();
  await facts.subscribe({ address: bob.address }, w1);
  await mint(chain, bob.address, 3n * USDC);
  await mint(chain, bob.address, 4n * USDC);
  await facts.delivered(2);
  await facts.stop();

  // As if the process died after delivering but before saving its cursor.
  const cursors = await node.store.collection({ name: 'chain_cursors', indexes: [] });
  await cursors.replaceOne({ _id: 'chain-facts' }, { _id: 'chain-facts', afterSequence: 0 });
  await mint(chain, bob.address, 5n * USDC);

  facts = consumer();
  await facts.start();
  t.teardown(() => facts.stop());
  await facts.delivered(3);
  const taken = (await view(node, w1)).taken;
  t.is(taken.length, 3);
  t.is(new Set(taken).size, 3);
});

test('a consumer rides out an indexer restart and resumes from its cursor', async (t) => {
  const { chain, node, consumer } = await setUp();
  t.teardown(() => chain.stop());
  const facts = consumer();
  await facts.start();
  t.teardown(() => facts.stop());
  await facts.subscribe({ address: bob.address }, w1);
  await mint(chain, bob.address, 1n * USDC);
  await facts.delivered(1);

  await chain.indexer.stop();
  await mint(chain, bob.address, 2n * USDC);
  await chain.restartIndexer();
  await mint(chain, bob.address, 3n * USDC);
  await facts.delivered(3);
  t.is((await view(node, w1)).taken.length, 3);
});

test('subscribers joining one subject at the same moment are all kept', async (t) => {
  const { chain, node, consumer } = await setUp();
  t.teardown(() => chain.stop());
  const facts = consumer();
  await facts.start();
  t.teardown(() => facts.stop());
  const watchers = Array.from({ length: 12 }, (_, i) => ({ kind: 'watcher', id: `crowd-${i}` }));
  for (const watcher of watchers) await node.system.askAt(watcher, { type: 'OPEN' });

  await Promise.all(watchers.map((watcher) => facts.subscribe({ depositId: '1' }, watcher)));
  await mint(chain, alice.address, 100n * USDC);
  await createDeposit(chain, alice, 50n * USDC);
  await readFacts(chain, 0, 1);
  await facts.delivered(1);

  for (const watcher of watchers) t.deepEqual((await view(node, watcher)).cases, ['depositReceived'], watcher.id);
});

test('a consumer whose indexer now serves another fact log starts over from its first fact instead of skipping it', async (t) => {
  const { chain, node, consumer } = await setUp();
  t.teardown(() => chain.stop());
  const facts = consumer();
  await facts.start();
  t.teardown(() => facts.stop());
  await facts.subscribe({ address: bob.address }, w1);
  for (const amount of [1n, 2n, 3n]) await mint(chain, bob.address, amount * USDC);
  await facts.delivered(3);

  // The indexer is rebuilt over a new log from the next block: its first fact is sequence 1, below the consumer's cursor.
  await chain.replaceLog(Number(await chain.client.getBlockNumber({ cacheTime: 0 })) + 1);
  await watch(chain, [bob.address]);
  await mint(chain, bob.address, 4n * USDC);
  await eventually(async () => (await view(node, w1)).taken.length === 4, 'the new log’s first fact taken');
  t.is(facts.afterSequence, 1, 'the cursor now counts in the new log');
});
