/**
 * The record of every turn (actors/runtime/turn-record.ts): what a row holds, that it
 * rides in the turn's own write (no write of its own, none for a refused command, a
 * replay or a write fenced out by a newer lease), that a crash between the write and
 * the insert still ends with each row exactly once, and the retention purge.
 */
import test from 'ava';
import { ActorHistory } from '../../../actors/history/index.js';
import { EmbeddedStore, HISTORY_COLLECTION, TestClock, type Collection, type Store, type TurnRecord } from '../../../actors/index.js';
import { counterKind } from '../../support/counter-kind.js';
import { interceptedStore } from '../../support/intercepted-store.js';
import { LocalCluster } from '../../support/local-cluster.js';
import { eventually } from '../../support/nats.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });
const DAY_MS = 24 * 60 * 60 * 1000;

function historyRows(store: Store): Promise<Collection<TurnRecord>> {
  return store.collection<TurnRecord>({ name: HISTORY_COLLECTION, indexes: [] });
}

async function rowsOf(store: Store, id: string): Promise<TurnRecord[]> {
  return (await historyRows(store)).find({ kind: 'counter', actorId: id }, { sort: { version: 1 } });
}

test('each turn is a row: event, message id, time, states before and after, the effects it queued, and what it changed', async (t) => {
  const { system, store, clock } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('other'), { type: 'OPEN' });
  await system.askAt(counter('c'), { type: 'OPEN' }, { messageId: 'm-open' });
  const openedAt = clock.now();
  await clock.advance(1_000);
  await system.askAt(counter('c'), { type: 'ADD', n: 2 }, { messageId: 'm-add' });
  await system.askAt(counter('c'), { type: 'ARM', ms: 5_000 }, { messageId: 'm-arm' });
  await clock.advance(5_000);
  await system.askAt(counter('c'), { type: 'FORWARD', to: 'other', n: 3 }, { messageId: 'm-forward' });
  await system.askAt(counter('c'), { type: 'ARM', ms: 5_000 }, { messageId: 'm-arm-again' });
  await system.askAt(counter('c'), { type: 'DISARM' }, { messageId: 'm-disarm' });
  await system.effectsIdle();

  const rows = await rowsOf(store, 'c');
  t.deepEqual(
    rows.map((row) => row.messageId),
    ['m-open', 'm-add', 'm-arm', `timer:bell@${openedAt + 6_000}`, 'm-forward', 'm-arm-again', 'm-disarm'],
  );
  for (const row of rows) t.is(row._id, `counter:c:${row.version}`);
  t.like(rows[0], { stateBefore: null, stateAfter: 'OPEN', event: { type: 'OPEN' }, timer: null, at: openedAt, machineVersion: 1 });
  t.deepEqual(rows[0]!.effects, {
    outbox: [{ id: `counter:c:${rows[0]!.version}:0`, type: 'event', event: 'COUNTER_OPENED' }],
    timersSet: [],
    timersCancelled: [],
  });
  t.like(rows[1], { stateBefore: 'OPEN', stateAfter: 'OPEN', event: { type: 'ADD', n: 2 }, at: openedAt + 1_000 });
  t.deepEqual(rows[2]!.effects.timersSet, [{ id: 'bell', dueAt: openedAt + 6_000, event: 'RING' }]);
  t.like(rows[3], { timer: 'bell', event: { type: 'RING' }, at: openedAt + 6_000 });
  t.deepEqual(
    rows[3]!.effects.outbox.map((entry) => entry.event),
    ['COUNTER_RANG'],
  );
  t.like(rows[4]!.effects.outbox[0], { type: 'tell', to: 'counter:other', event: 'ADD' });
  t.deepEqual(rows[6]!.effects.timersCancelled, ['bell']);
  for (const row of rows) t.false('snapshot' in row, `${row._id} keeps no copy of the snapshot`);
  t.is(rows[0]!.undo, null, 'the creation found no snapshot to lead back to');
  t.like(
    rows[1]!.undo,
    { keys: { context: { keys: { total: { keys: { __bigint: { set: '0' } } }, applied: { set: [] } } } } },
    'ADD 2 changed the total and the list',
  );

  const doc = await system.documents('counter').findOne({ _id: 'c' });
  const travelled = await new ActorHistory(system).travel(doc!, rows[1]!.version, 'stored');
  t.like(
    travelled!.snapshot,
    { value: 'OPEN', context: { total: { __bigint: '2' }, applied: [2] } },
    'the stored snapshot after ADD 2, walked back from the document',
  );
  t.is((await rowsOf(store, 'other')).length, 2, 'the told actor records its own turn');
});

test('the record rides in the turn’s write: no write of its own, and the document keeps only the newest until the next write', async (t) => {
  const { system, store } = await startTestSystem({ kinds: [counterKind()], doneSaveDelayMs: 3_600_000 });
  await system.askAt(counter('quiet'), { type: 'OPEN' });
  for (let n = 1; n <= 5; n++) await system.askAt(counter('quiet'), { type: 'ADD', n });
  await eventually(async () => (await rowsOf(store, 'quiet')).length === 6, 'six rows');

  const doc = await system.documents('counter').findOne({ _id: 'quiet' });
  t.is(doc!.version, 6, 'OPEN and five ADDs: six writes, none for the history');
  t.deepEqual(
    doc!.history!.map((record) => record.version),
    [6],
    'the newest record stays; the inserted ones left with the next turn',
  );
  t.deepEqual(
    (await rowsOf(store, 'quiet')).map((row) => row.version),
    [1, 2, 3, 4, 5, 6],
  );
});

test('a refused command, a replayed message and a stale timer write no history', async (t) => {
  const { system, store, clock } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('strict'), { type: 'OPEN' });
  await system.askAt(counter('strict'), { type: 'ADD', n: 1 }, { messageId: 'once' });
  await system.askAt(counter('strict'), { type: 'ARM', ms: 1_000 });
  await system.askAt(counter('strict'), { type: 'DISARM' });
  await t.throwsAsync(system.askAt(counter('strict'), { type: 'ADD', n: -1 }), { name: 'CommandRejectedError' });
  await system.askAt(counter('strict'), { type: 'ADD', n: 1 }, { messageId: 'once' });
  await system.receive(counter('strict'), { id: 'late', event: { type: 'runtime.timer', timerId: 'bell', dueAt: clock.now() + 1_000 } as { type: string } });
  await system.effectsIdle();

  t.deepEqual(
    (await rowsOf(store, 'strict')).map((row) => (row.event as { type: string }).type),
    ['OPEN', 'ADD', 'ARM', 'DISARM'],
  );
});

test('a crash between the write and the insert loses no row and writes none twice', async (t) => {
  let nodeAlive = true;
  const inner = new EmbeddedStore();
  const store = interceptedStore(inner, (spec, collection) =>
    spec.name === HISTORY_COLLECTION
      ? {
          insertOne: async (doc) => {
            // The first node dies between each turn's write and its insert.
            if (nodeAlive) throw new Error('the node died before the insert');
            return collection.insertOne(doc);
          },
        }
      : {},
  );
  const clock = new TestClock();
  const first = await startTestSystem({ kinds: [counterKind()], store, clock });
  await first.system.askAt(counter('phoenix'), { type: 'OPEN' });
  await first.system.askAt(counter('phoenix'), { type: 'ADD', n: 1 });
  await first.system.effectsIdle();
  await first.system.halt();
  nodeAlive = false;

  t.is((await rowsOf(inner, 'phoenix')).length, 0);
  const held = (await first.system.documents('counter').findOne({ _id: 'phoenix' }))!.history!;
  t.deepEqual(
    held.map((record) => record.version),
    [1, 2],
    'both records wait in the document',
  );
  t.like(held[1]!.undo, { keys: { context: { keys: { total: { keys: { __bigint: { set: '0' } } } } } } }, 'the newer one leads back to the snapshot it found');

  // The next node to load the actor inserts what it finds; a third finds the newest record again and inserts nothing new.
  const second = await startTestSystem({ kinds: [counterKind()], store, clock });
  await second.system.askAt(counter('phoenix'), { type: 'ADD', n: 2 });
  await second.system.effectsIdle();
  await second.system.halt();
  const third = await startTestSystem({ kinds: [counterKind()], store, clock });
  await third.system.askAt(counter('phoenix'), { type: 'ADD', n: 3 });
  await third.system.effectsIdle();

  const rows = await rowsOf(inner, 'phoenix');
  t.deepEqual(
    rows.map((row) => row.version),
    [1, 2, 3, 4],
    'each turn once',
  );
  t.deepEqual(
    rows.map((row) => (row.event as { type: string }).type),
    ['OPEN', 'ADD', 'ADD', 'ADD'],
  );
  const doc = (await third.system.documents('counter').findOne({ _id: 'phoenix' }))!;
  const travelled = await new ActorHistory(third.system).travel(doc, rows[1]!.version, 'stored');
  t.like(travelled!.snapshot, { context: { total: { __bigint: '1' } } }, 'the record of a turn leads to its own snapshot, not a later one');
});

test('a write fenced out by a newer lease leaves no row', async (t) => {
  const cluster = new LocalCluster(16);
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const a = cluster.transport();
  const b = cluster.transport();
  const nodeA = await startTestSystem({ kinds: [counterKind()], store, clock, transport: a });
  const nodeB = await startTestSystem({ kinds: [counterKind()], store, clock, transport: b });
  for (let shard = 0; shard < 16; shard++) cluster.assign(shard, a);

  await nodeA.system.askAt(counter('contested'), { type: 'OPEN' });
  // B takes the shard under a newer lease while A, partitioned, still believes it holds it.
  cluster.assign(cluster.shardOf('contested'), b, { tellLoser: false });
  await nodeA.system.askAt(counter('contested'), { type: 'ADD', n: 10 });
  await t.throwsAsync(nodeA.system.receive(counter('contested'), { id: 'late-on-a', event: { type: 'ADD', n: 100 } as { type: string } }), {
    name: 'ShardNotServedError',
  });
  await Promise.all([nodeA.system.effectsIdle(), nodeB.system.effectsIdle()]);

  const rows = await rowsOf(store, 'contested');
  t.deepEqual(
    rows.map((row) => row.event),
    [{ type: 'OPEN' }, { type: 'ADD', n: 10 }],
  );
  t.false(rows.some((row) => row.messageId === 'late-on-a'));
});

test('rows older than the retention are purged by the sweep on the test clock; newer ones stay', async (t) => {
  const { system, store, clock } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('old'), { type: 'OPEN' });
  await system.effectsIdle();
  await clock.advance(60 * DAY_MS);
  await system.askAt(counter('new'), { type: 'OPEN' });
  await system.effectsIdle();
  t.is((await rowsOf(store, 'old')).length, 1);

  await clock.advance(31 * DAY_MS);
  t.is((await rowsOf(store, 'old')).length, 0, '91 days old: past the 90-day default');
  t.is((await rowsOf(store, 'new')).length, 1, '31 days old: kept');
});
