import test from 'ava';
import { EmbeddedStore, ShardNotServedError, TestClock } from '../../../actors/index.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { LocalCluster } from '../../support/local-cluster.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });

test('a node that lost a shard without hearing of it cannot write an actor the new holder has written', async (t) => {
  const cluster = new LocalCluster(16);
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const a = cluster.transport();
  const b = cluster.transport();
  const nodeA = await startTestSystem({ kinds: [counterKind()], store, clock, transport: a });
  await startTestSystem({ kinds: [counterKind()], store, clock, transport: b });
  for (let shard = 0; shard < 16; shard++) cluster.assign(shard, a);

  await nodeA.system.ask(counter('contested'), { type: 'OPEN' });
  await nodeA.system.ask(counter('contested'), { type: 'ADD', n: 1 });
  // B takes the shard under a newer lease while A, partitioned, still believes it holds it.
  cluster.assign(cluster.shardOf('contested'), b, { tellLoser: false });
  await nodeA.system.ask(counter('contested'), { type: 'ADD', n: 10 });

  const stale = nodeA.system.receive(counter('contested'), { id: 'late-on-a', event: { type: 'ADD', n: 100 } as { type: string } });
  await t.throwsAsync(stale, { instanceOf: ShardNotServedError });
  const doc = await store.collection({ name: 'actors_counter', indexes: [] }).then((actors) => actors.findOne({ _id: 'contested' }));
  t.is((doc!.view as unknown as CounterView).total, '11', 'only the holder of the newest lease changed it');
});

test('a node that does not hold a shard refuses its messages with a retryable error and runs none of its timers', async (t) => {
  const cluster = new LocalCluster(16);
  const a = cluster.transport();
  const { system, clock } = await startTestSystem({ kinds: [counterKind()], transport: a });
  for (let shard = 0; shard < 16; shard++) cluster.assign(shard, a);
  await system.ask(counter('bell'), { type: 'OPEN' });
  await system.ask(counter('bell'), { type: 'ARM', ms: 1_000 });

  a.lose(cluster.shardOf('bell'));
  await t.throwsAsync(system.receive(counter('bell'), { id: 'm', event: { type: 'ADD', n: 1 } as { type: string } }), { instanceOf: ShardNotServedError });
  await clock.advance(5_000);
  const doc = await system.documents('counter').findOne({ _id: 'bell' });
  t.is((doc!.view as unknown as CounterView).rings, 0, 'the timer waits for the shard’s holder');
  t.is(doc!.timers.length, 1);
});
