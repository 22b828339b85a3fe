/**
 * Time travel's two sources agree: over every actor an end-to-end run touched, every
 * turn's events replayed from the actor's creation through its pure machine give the
 * snapshot that turn stored, and the last one the actor's document.
 */
import test from 'ava';
import { ActorHistory, replay } from '../../../actors/history/index.js';
import type { ActorDocument, TurnRecord } from '../../../actors/index.js';
import { inspectedRun } from '../../support/inspected-run.js';

async function everyTurn(history: ActorHistory, doc: ActorDocument): Promise<TurnRecord[]> {
  const turns: TurnRecord[] = [];
  for (let after = 0; ; ) {
    const page = await history.page(doc, after, 100);
    turns.push(...page.turns);
    if (!page.hasMore) return turns;
    after = page.turns.at(-1)!.version;
  }
}

test('for every actor of an end-to-end run and every turn, the replayed state equals the stored snapshot', async (t) => {
  const { world } = await inspectedRun(t);
  const { system } = world.gateway.node;
  const history = new ActorHistory(system);
  const touched = new Map<string, number>();
  let turns = 0;

  for (const kind of system.stats().kinds) {
    for (const doc of await system.documents(kind).find({})) {
      const records = await everyTurn(history, doc);
      const label = `${kind}:${doc._id}`;
      t.is(records[0]?.stateBefore, null, `${label}: its creation is recorded`);
      const replayed = replay(system.kind(kind), records);
      for (const [index, step] of replayed.entries()) {
        const record = records[index]!;
        t.is(step.version, record.version);
        const stored = await history.travel(doc, record.version, 'stored');
        t.deepEqual(step.snapshot, stored!.snapshot, `${label} after turn ${record.version} (${(record.event as { type: string }).type})`);
      }
      t.deepEqual(replayed.at(-1)!.snapshot, doc.snapshot, `${label}: the last replayed state is the document's`);
      touched.set(kind, (touched.get(kind) ?? 0) + 1);
      turns += records.length;
    }
  }
  for (const kind of ['merchant', 'webhook', 'order', 'payment', 'delivery']) t.true((touched.get(kind) ?? 0) > 0, `the run touched a ${kind}`);
  t.log(`${[...touched.values()].reduce((a, b) => a + b, 0)} actors (${[...touched].map(([kind, n]) => `${kind} ${n}`).join(', ')}), ${turns} turns`);
});

test('the inspector’s replay of one turn starts from the creation and matches the stored snapshot of that turn', async (t) => {
  const { world, paid } = await inspectedRun(t);
  const { system } = world.gateway.node;
  const history = new ActorHistory(system);
  const doc = (await system.documents('order').findOne({ _id: paid.id }))!;
  const turns = await everyTurn(history, doc);
  t.true(turns.length >= 3, 'created, paid, fulfilled');
  for (const turn of turns) {
    const stored = await history.travel(doc, turn.version, 'stored');
    const replayed = await history.travel(doc, turn.version, 'replay');
    t.is(replayed!.replayedFrom, 0);
    t.is(stored!.replayedFrom, null);
    t.deepEqual(replayed!.snapshot, stored!.snapshot);
  }
  t.is(await history.travel(doc, doc.version + 1, 'replay'), null, 'no turn wrote a version past the document’s');
});
