/**
 * The snapshot after a past turn, walked back from the document through the patches
 * of the turns since: from documents and rows written before patches were kept (which
 * hold snapshots), and when the retention has purged the actor's creation.
 */
import test from 'ava';
import { ActorHistory } from '../../../actors/history/index.js';
import { EmbeddedStore, HISTORY_COLLECTION, TestClock, type ActorDocument, type Collection, type TurnRecord } from '../../../actors/index.js';
import { counterKind } from '../../support/counter-kind.js';
import { interceptedStore } from '../../support/intercepted-store.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });
const DAY_MS = 24 * 60 * 60 * 1000;
const totalOf = (snapshot: unknown) => (snapshot as { context: { total: { __bigint: string } } }).context.total.__bigint;

test('documents and rows written before patches were kept still load, take turns, and travel', async (t) => {
  let insertFrom = Infinity;
  const inner = new EmbeddedStore();
  // Only the creation's row is inserted by the first node: the later records wait in the document.
  const store = interceptedStore(inner, (spec, collection) =>
    spec.name === HISTORY_COLLECTION
      ? {
          insertOne: async (doc) => {
            if ((doc as TurnRecord).version > 1 && (doc as TurnRecord).version < insertFrom) throw new Error('not yet');
            return collection.insertOne(doc);
          },
        }
      : {},
  );
  const clock = new TestClock();
  const first = await startTestSystem({ kinds: [counterKind()], store, clock });
  await first.system.askAt(counter('old'), { type: 'OPEN' });
  await first.system.effectsIdle();
  await first.system.askAt(counter('old'), { type: 'ADD', n: 1 });
  await first.system.askAt(counter('old'), { type: 'ADD', n: 2 });
  await first.system.effectsIdle();
  await first.system.halt();

  // Rewrite what it stored in the form the runtime wrote before patches: snapshots in the rows and in the
  // document's records, the newest one's null (the document's own), and no patches.
  const history = new ActorHistory(first.system);
  const documents = first.system.documents('counter');
  const doc = (await documents.findOne({ _id: 'old' }))!;
  const rows = await inner.collection<TurnRecord>({ name: HISTORY_COLLECTION, indexes: [] });
  const [created] = await rows.find({ actorId: 'old' });
  const versions = [created!.version, ...doc.history!.map((record) => record.version)];
  t.is(versions.length, 3, 'the creation in the rows, both ADDs in the document');
  const snapshots = new Map<number, unknown>();
  for (const version of versions) snapshots.set(version, (await history.travel(doc, version, 'stored'))!.snapshot);
  const legacy = (record: TurnRecord, newest: boolean): TurnRecord => {
    const { undo: _undo, ...rest } = record;
    return { ...rest, snapshot: newest ? null : (snapshots.get(record.version) as TurnRecord['snapshot']) };
  };
  await rows.replaceOne({ _id: created!._id }, legacy(created!, false));
  const held = doc.history!.map((record, index, all) => legacy(record, index === all.length - 1));
  await (documents as Collection<ActorDocument>).replaceOne({ _id: 'old' }, { ...doc, history: held });

  insertFrom = 0;
  const next = await startTestSystem({ kinds: [counterKind()], store, clock });
  await next.system.askAt(counter('old'), { type: 'ADD', n: 4 });
  await next.system.effectsIdle();
  await next.system.askAt(counter('old'), { type: 'ADD', n: 8 });
  await next.system.effectsIdle();

  const stored = await rows.find({ actorId: 'old' }, { sort: { version: 1 } });
  t.deepEqual(
    stored.map((row) => (row.snapshot === undefined ? 'patch' : totalOf(row.snapshot))),
    ['0', '1', '3', 'patch', 'patch'],
    'the old records are inserted with their own snapshots, the newest old one with the snapshot it left',
  );
  const now = (await next.system.documents('counter').findOne({ _id: 'old' }))!;
  t.deepEqual(
    now.history!.map((record) => record.version),
    [stored.at(-1)!.version],
  );
  const reader = new ActorHistory(next.system);
  for (const [index, total] of ['0', '1', '3', '7', '15'].entries()) {
    const { version } = stored[index]!;
    const travelled = await reader.travel(now, version, 'stored');
    t.is(totalOf(travelled!.snapshot), total, `stored after ${version}`);
    t.deepEqual((await reader.travel(now, version, 'replay'))!.snapshot, travelled!.snapshot, `replayed after ${version}`);
  }
  t.deepEqual((await reader.travel(now, stored.at(-1)!.version, 'stored'))!.snapshot, now.snapshot);
});

test('with the creation purged, the replay starts from the walked-back snapshot of the oldest turn kept', async (t) => {
  const { system, clock } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('aged'), { type: 'OPEN' });
  await system.effectsIdle();
  await clock.advance(60 * DAY_MS);
  for (const n of [1, 2, 4]) await system.askAt(counter('aged'), { type: 'ADD', n });
  await system.effectsIdle();
  await clock.advance(31 * DAY_MS);

  const doc = (await system.documents('counter').findOne({ _id: 'aged' }))!;
  const history = new ActorHistory(system);
  const { turns } = await history.page(doc, 0, 10);
  t.deepEqual(
    turns.map((turn) => (turn.event as { type: string }).type),
    ['ADD', 'ADD', 'ADD'],
    'the creation is past the retention',
  );
  const [oldest, , newest] = turns;
  t.is(await history.travel(doc, 1, 'stored'), null);
  const replayed = await history.travel(doc, newest!.version, 'replay');
  t.is(replayed!.replayedFrom, oldest!.version);
  t.is(totalOf(replayed!.snapshot), '7');
  t.is(totalOf((await history.travel(doc, oldest!.version, 'stored'))!.snapshot), '1');
  t.deepEqual(replayed!.snapshot, doc.snapshot);
});
