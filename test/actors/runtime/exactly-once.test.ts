import test from 'ava';
import { EmbeddedStore, TestClock } from '../../../actors/index.js';
import { MessageLog } from '../../../actors/runtime/message-log.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { slowStore } from '../../support/slow-store.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });

test('1,000 asks retried while their turns are still queued each add exactly once', async (t) => {
  t.timeout(120_000);
  // A 3 ms write and a 5 ms attempt: most asks time out while queued and send their copy behind the original.
  const { system } = await startTestSystem({ kinds: [counterKind()], store: slowStore(new EmbeddedStore(), 3), attemptTimeoutMs: 5 });
  await system.askAt(counter('busy'), { type: 'OPEN' }, { timeoutMs: 60_000 });

  const asks = 1000;
  await Promise.all(
    Array.from({ length: asks }, (_, i) => system.askAt(counter('busy'), { type: 'ADD', n: 1 }, { messageId: `add-${i}`, timeoutMs: 110_000 })),
  );
  await system.effectsIdle();

  const view = (await system.documents('counter').findOne({ _id: 'busy' }))!.view as unknown as CounterView;
  t.log(`${asks} asks added ${view.total}`);
  t.is(view.total, String(asks));
});

test('a retry after 1,000 other messages returns the stored reply and changes nothing', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('long'), { type: 'OPEN' });
  const first = await system.askAt(counter('long'), { type: 'ADD', n: 7 }, { messageId: 'early' });
  for (let i = 0; i < 1000; i++) await system.askAt(counter('long'), { type: 'ADD', n: 1 });

  const again = await system.askAt(counter('long'), { type: 'ADD', n: 7 }, { messageId: 'early' });
  t.deepEqual(again, first);
  const view = (await system.documents('counter').findOne({ _id: 'long' }))!.view as unknown as CounterView;
  t.is(view.total, '1007');
});

test('a retry after the actor left memory, or after the node was replaced, returns the stored reply', async (t) => {
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const { system } = await startTestSystem({ kinds: [counterKind()], store, clock, cacheSize: 1 });
  await system.askAt(counter('evicted'), { type: 'OPEN' });
  const first = await system.askAt(counter('evicted'), { type: 'ADD', n: 3 }, { messageId: 'before-eviction' });
  for (let i = 0; i < 200; i++) await system.askAt(counter('evicted'), { type: 'ADD', n: 1 });
  // Other actors push it out of the cache of one.
  for (let i = 0; i < 5; i++) await system.askAt(counter(`other-${i}`), { type: 'OPEN' });
  t.deepEqual(await system.askAt(counter('evicted'), { type: 'ADD', n: 3 }, { messageId: 'before-eviction' }), first);
  await system.halt();

  const { system: replacement } = await startTestSystem({ kinds: [counterKind()], store, clock });
  t.deepEqual(await replacement.askAt(counter('evicted'), { type: 'ADD', n: 3 }, { messageId: 'before-eviction' }), first);
  const view = (await replacement.documents('counter').findOne({ _id: 'evicted' }))!.view as unknown as CounterView;
  t.is(view.total, '203');
});

test('remembered message ids expire after the retention, not after a count', async (t) => {
  const clock = new TestClock();
  const { system } = await startTestSystem({ kinds: [counterKind()], clock });
  await system.askAt(counter('aging'), { type: 'OPEN' });
  await system.askAt(counter('aging'), { type: 'ADD', n: 1 }, { messageId: 'old' });
  for (let i = 0; i < 300; i++) await system.askAt(counter('aging'), { type: 'ADD', n: 1 });
  await clock.advance(23 * 60 * 60 * 1000);
  await system.askAt(counter('aging'), { type: 'ADD', n: 1 }, { messageId: 'old' });
  let view = (await system.documents('counter').findOne({ _id: 'aging' }))!.view as unknown as CounterView;
  t.is(view.total, '301', 'inside 24 hours the retry is a replay');

  await clock.advance(2 * 60 * 60 * 1000);
  await system.sweep();
  await system.askAt(counter('aging'), { type: 'ADD', n: 1 }, { messageId: 'old' });
  view = (await system.documents('counter').findOne({ _id: 'aging' }))!.view as unknown as CounterView;
  t.is(view.total, '302', 'after the retention the id is forgotten');
});

test('a batch of ids written again after a lost write, longer than before, keeps every id findable', async (t) => {
  const log = await MessageLog.open(new EmbeddedStore(), 60_000);
  const actor = { kind: 'counter', id: 'logged' };
  const message = (id: string) => ({ id, reply: JSON.stringify(id), appliedAt: 1_000 });
  await log.append(actor, ['m1', 'm2'].map(message));
  await log.append(actor, ['m1', 'm2', 'm3'].map(message));
  await log.append(actor, ['m1', 'm2', 'm3'].map(message));
  for (const id of ['m1', 'm2', 'm3']) t.is(await log.reply(actor, id, 2_000), JSON.stringify(id));
  t.is(await log.reply({ kind: 'counter', id: 'other' }, 'm1', 2_000), null, 'ids are per actor');
  t.is(await log.reply(actor, 'm1', 61_000), null, 'past the retention');
  t.is(await log.purge(61_001), 2);
});
