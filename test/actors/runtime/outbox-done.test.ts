import test from 'ava';
import { EmbeddedStore, MemoryBus, TestClock, shardOf, type DomainEvent, type Store } from '../../../actors/index.js';
import { counterKind } from '../../support/counter-kind.js';
import { interceptedStore } from '../../support/intercepted-store.js';
import { eventually } from '../../support/nats.js';
import { startTestSystem } from '../../support/test-node.js';
import { reportToSelf } from '../../../actors/runtime/effect-report.js';

const counter = (id: string) => ({ kind: 'counter', id });

/** A bus that counts every publish, duplicates included (the bus itself drops those by event id). */
class CountingBus extends MemoryBus {
  readonly published: string[] = [];

  override async publish(event: DomainEvent): Promise<void> {
    this.published.push(event.id);
    await super.publish(event);
  }
}

/** Counts the conditional writes of actor documents. */
function countingStore(inner: Store): Store & { replaces: number } {
  const counted = Object.assign(
    interceptedStore(inner, (spec, collection) => ({
      replaceOne: (filter, doc) => {
        if (spec.name.startsWith('actors_')) counted.replaces++;
        return collection.replaceOne(filter, doc);
      },
    })),
    { replaces: 0 },
  );
  return counted;
}

/** Longer than any test here: until it passes, only a turn, a sweep, a drain or a handover saves a removal. */
const NOT_BY_ITSELF = 3_600_000;

/** The drain marks an effect done in the microtasks after it ran; a macrotask later it has. */
const afterMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

async function published(bus: CountingBus, id: string): Promise<void> {
  await eventually(() => bus.published.includes(id), `${id} published`);
  await afterMicrotasks();
}

test('a published event costs no write of its own: its removal rides on the actor’s next turn', async (t) => {
  const bus = new CountingBus();
  const store = countingStore(new EmbeddedStore());
  const { system } = await startTestSystem({ kinds: [counterKind()], bus, store, doneSaveDelayMs: NOT_BY_ITSELF });
  await system.askAt(counter('rider'), { type: 'OPEN' });
  await published(bus, 'counter:rider:1:0');

  const stored = await system.documents('counter').findOne({ _id: 'rider' });
  t.true(stored!.outboxPending, 'the stored outbox still holds the published event');
  t.is(store.replaces, 0);

  await system.askAt(counter('rider'), { type: 'ADD', n: 1 });
  const next = await system.documents('counter').findOne({ _id: 'rider' });
  t.deepEqual(next!.outbox, []);
  t.false(next!.outboxPending);
  t.is(next!.version, 2, 'OPEN and ADD, nothing else');
  t.is(store.replaces, 1);
  await system.effectsIdle();
  t.deepEqual(bus.published, ['counter:rider:1:0']);
});

test('a kind’s own effect, which may act outside, has its removal saved by a grouped write shortly after', async (t) => {
  const probed: string[] = [];
  const store = countingStore(new EmbeddedStore());
  const { system } = await startTestSystem({ kinds: [counterKind(async (params) => void probed.push(String(params.label)))], store, doneSaveDelayMs: 0 });
  const ids = ['soon0', 'soon1', 'soon2'];
  for (const id of ids) await system.askAt(counter(id), { type: 'OPEN' });
  await system.effectsIdle();
  const before = store.replaces;
  for (const id of ids) await system.askAt(counter(id), { type: 'PROBE', label: id });
  // The grouped write runs on its own timer (no turn, no sweep, no drain here): wait for it, however slow the machine.
  await eventually(async () => (await system.documents('counter').count({ outboxPending: true })) === 0, 'the grouped write');
  t.is(store.replaces - before, 2 * ids.length, 'the PROBE turn and one grouped write per actor');
  t.deepEqual(probed, ids);
});

test('a domain event’s removal waits for a write to ride on no longer than its own bound, then a grouped write saves it', async (t) => {
  const bus = new CountingBus();
  const store = countingStore(new EmbeddedStore());
  const { system } = await startTestSystem({ kinds: [counterKind()], bus, store, doneSaveDelayMs: NOT_BY_ITSELF, harmlessDoneSaveDelayMs: 0 });
  const ids = ['bound0', 'bound1', 'bound2'];
  for (const id of ids) await system.askAt(counter(id), { type: 'OPEN' });
  // The grouped write runs on its own timer (no turn, no sweep, no drain here): wait for it, however slow the machine.
  await eventually(async () => (await system.documents('counter').count({ outboxPending: true })) === 0, 'the grouped write');
  t.is(store.replaces, ids.length, 'one write per actor');
  t.deepEqual(
    bus.published,
    ids.map((id) => `counter:${id}:1:0`),
  );
});

test('a sweep neither writes nor runs again the effects that ran; an actor leaving memory saves their removal first', async (t) => {
  const bus = new CountingBus();
  const store = countingStore(new EmbeddedStore());
  const ids = ['quiet0', 'quiet1', 'quiet2', 'quiet3', 'quiet4'];
  // A cache just big enough for them.
  const { system, clock } = await startTestSystem({ kinds: [counterKind()], bus, store, cacheSize: ids.length });
  for (const id of ids) await system.askAt(counter(id), { type: 'OPEN' });
  for (const id of ids) await published(bus, `counter:${id}:1:0`);
  const waiting = () => system.documents('counter').count({ _id: { $in: ids }, outboxPending: true });
  t.is(await waiting(), ids.length);

  for (let i = 0; i < 3; i++) await clock.advance(1_000);
  t.is(store.replaces, 0, 'no sweep wrote a removal: each waits for its actor’s next write');
  t.is(await waiting(), ids.length);

  // An actor arriving past the cache makes the others leave, each saving its removal first.
  await system.askAt(counter('arriving'), { type: 'OPEN' });
  await eventually(async () => (await waiting()) === 0, 'the saves before leaving');
  t.is(store.replaces, ids.length, 'one write per actor');
  await system.askAt(counter('later'), { type: 'OPEN' });
  t.is(system.stats().liveActors, ids.length, 'saved, they leave memory down to the cache');
  await system.effectsIdle();
  for (let i = 0; i < 3; i++) await clock.advance(1_000);
  t.deepEqual([...bus.published].sort(), [...ids, 'arriving', 'later'].map((id) => `counter:${id}:1:0`).sort(), 'each event published once');
});

test('a crash before the removal is saved publishes again under the next holder; the bus keeps one copy', async (t) => {
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const bus = new CountingBus();
  const delivered: string[] = [];
  await bus.consume({ durable: 'audit', types: ['COUNTER_OPENED'] }, async (event) => void delivered.push(event.id));

  const crashed = await startTestSystem({ kinds: [counterKind()], store, clock, bus, doneSaveDelayMs: NOT_BY_ITSELF });
  await crashed.system.askAt(counter('phoenix'), { type: 'OPEN' });
  await published(bus, 'counter:phoenix:1:0');
  await crashed.system.halt();
  t.true((await crashed.system.documents('counter').findOne({ _id: 'phoenix' }))!.outboxPending);

  const heir = await startTestSystem({ kinds: [counterKind()], store, clock, bus });
  await heir.system.effectsIdle();
  t.deepEqual(bus.published, ['counter:phoenix:1:0', 'counter:phoenix:1:0'], 'published again by the heir');
  t.false((await heir.system.documents('counter').findOne({ _id: 'phoenix' }))!.outboxPending);
  await heir.system.askAt(counter('phoenix'), { type: 'ADD', n: 1 });
  t.deepEqual(delivered, ['counter:phoenix:1:0'], 'consumers see it once: the bus de-duplicates by event id');
});

test('a graceful drain and a handover of shards save the removals first', async (t) => {
  const bus = new CountingBus();
  const { system } = await startTestSystem({ kinds: [counterKind()], bus, doneSaveDelayMs: NOT_BY_ITSELF });
  await system.askAt(counter('handed'), { type: 'OPEN' });
  await system.askAt(counter('drained'), { type: 'OPEN' });
  await published(bus, 'counter:handed:1:0');
  await published(bus, 'counter:drained:1:0');

  await system.releasing([shardOf('handed', 16)]);
  t.false((await system.documents('counter').findOne({ _id: 'handed' }))!.outboxPending, 'saved before the shard is given back');
  t.true((await system.documents('counter').findOne({ _id: 'drained' }))!.outboxPending, 'other shards wait for their sweep');
  system.shardsChanged([shardOf('handed', 16)], []);

  await system.drain();
  t.false((await system.documents('counter').findOne({ _id: 'drained' }))!.outboxPending);
  t.is(bus.published.length, 2);
});

test('an effect reporting to its own actor while the shard is handed over finishes before the handover ends: the next owner has nothing to run again', async (t) => {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let started: () => void = () => {};
  const running = new Promise<void>((resolve) => (started = resolve));
  let runs = 0;
  const { system } = await startTestSystem({
    kinds: [
      counterKind(async (_params, context) => {
        runs++;
        started();
        await gate;
        // What a webhook attempt does with its answer: tell its own delivery actor.
        await reportToSelf(context, { type: 'ADD', n: 1 });
      }),
    ],
  });
  await system.askAt(counter('reporting'), { type: 'OPEN' });
  await system.askAt(counter('reporting'), { type: 'PROBE', label: 'attempt' });
  await running;

  const handing = system.releasing([shardOf('reporting', 16)]);
  release();
  await handing;
  const saved = (await system.documents('counter').findOne({ _id: 'reporting' }))!;
  t.is((saved.view as { total: string }).total, '1', 'the report was taken here, during the handover');
  t.false(saved.outboxPending, 'and the effect is saved done: the next owner runs nothing again');
  t.is(runs, 1);
});
