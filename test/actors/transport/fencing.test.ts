import test from 'ava';
import { EmbeddedStore, ShardNotServedError, TestClock, type ActorSystem, type EffectHandler } from '../../../actors/index.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { LocalCluster } from '../../support/local-cluster.js';
import { eventually } from '../../support/nats.js';
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

  await nodeA.system.askAt(counter('contested'), { type: 'OPEN' });
  await nodeA.system.askAt(counter('contested'), { type: 'ADD', n: 1 });
  // B takes the shard under a newer lease while A, partitioned, still believes it holds it.
  cluster.assign(cluster.shardOf('contested'), b, { tellLoser: false });
  await nodeA.system.askAt(counter('contested'), { type: 'ADD', n: 10 });

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
  await system.askAt(counter('bell'), { type: 'OPEN' });
  await system.askAt(counter('bell'), { type: 'ARM', ms: 1_000 });

  a.lose(cluster.shardOf('bell'));
  await t.throwsAsync(system.receive(counter('bell'), { id: 'm', event: { type: 'ADD', n: 1 } as { type: string } }), { instanceOf: ShardNotServedError });
  await clock.advance(5_000);
  const doc = await system.documents('counter').findOne({ _id: 'bell' });
  t.is((doc!.view as unknown as CounterView).rings, 0, 'the timer waits for the shard’s holder');
  t.is(doc!.timers.length, 1);
});

test('a node that loses a shard and takes it back acts for its actors through one activation: each effect runs once under the new lease', async (t) => {
  const cluster = new LocalCluster(16);
  const a = cluster.transport();
  const runs: { label: string; effect: string; epoch: number }[] = [];
  let openGate!: () => void;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  const triggered: Promise<unknown>[] = [];
  let system!: ActorSystem;
  const probe: EffectHandler = async (params, context) => {
    const { label } = params as { label: string };
    runs.push({ label, effect: context.effectId, epoch: context.epoch });
    if (label === 'slow' && runs.length === 1) {
      await gate;
      throw new Error('the slow effect fails once');
    }
    // A turn that lands while this effect's done mark is still unsaved, as busy actors have.
    if (label === 'fast') triggered.push(system.askAt(counter('twice'), { type: 'ADD', n: 1 }));
  };
  ({ system } = await startTestSystem({
    kinds: [counterKind(probe)],
    transport: a,
    retryPolicy: { baseMs: 60_000, maxBackoffMs: 60_000, maxAttempts: 1, maxAgeMs: 60_000 },
    doneSaveDelayMs: 3_600_000,
  }));
  for (let shard = 0; shard < 16; shard++) cluster.assign(shard, a);
  await system.askAt(counter('twice'), { type: 'OPEN' });
  await system.askAt(counter('twice'), { type: 'PROBE', label: 'slow' });
  await eventually(() => runs.length === 1, 'the slow effect started');

  // The lease lapses while the slow effect runs, and the node takes the shard again under a new epoch.
  const shard = cluster.shardOf('twice');
  a.lose(shard);
  const epoch = cluster.assign(shard, a);
  await system.askAt(counter('twice'), { type: 'PROBE', label: 'fast' });
  openGate();
  await system.effectsIdle();
  await system.askAt(counter('twice'), { type: 'ADD', n: 2 });
  await system.effectsIdle();
  await Promise.all(triggered);
  await system.effectsIdle();

  const perLease = new Map<string, number>();
  for (const run of runs) perLease.set(`${run.effect}@${run.epoch}`, (perLease.get(`${run.effect}@${run.epoch}`) ?? 0) + 1);
  t.deepEqual(
    [...perLease].filter(([, count]) => count > 1),
    [],
    'no effect ran twice under one lease',
  );
  t.deepEqual(
    runs.filter((run) => run.epoch === epoch).map((run) => run.label),
    ['slow', 'fast'],
    'under the new lease, the effects left in the outbox run once each, in order',
  );
  const doc = await system.documents('counter').findOne({ _id: 'twice' });
  t.is((doc!.view as unknown as CounterView).total, '3');
});
