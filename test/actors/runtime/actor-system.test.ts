import test from 'ava';
import { CommandRejectedError, EmbeddedStore, UnknownActorError, type DomainEvent } from '../../../actors/index.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  if (!condition()) throw new Error('condition not met');
}

test('1,000 concurrent commands spread over 10 actors leave every count exact', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()] });
  const ids = Array.from({ length: 10 }, (_, i) => `c${i}`);
  await Promise.all(ids.map((id) => system.askAt(counter(id), { type: 'OPEN' })));

  await Promise.all(Array.from({ length: 1000 }, (_, i) => system.askAt(counter(ids[i % 10]!), { type: 'ADD', n: i })));
  await system.effectsIdle();

  for (const [index, id] of ids.entries()) {
    const doc = await system.documents('counter').findOne({ _id: id });
    const view = doc!.view as unknown as CounterView;
    const expected = Array.from({ length: 100 }, (_, k) => index + 10 * k);
    t.deepEqual(
      [...view.applied].sort((a, b) => a - b),
      expected,
    );
    t.is(view.total, String(expected.reduce((sum, n) => sum + n, 0)));
    t.is(doc!.version, 101, 'OPEN and 100 ADDs: the removal of the published COUNTER_OPENED rode on an ADD, no write of its own');
  }
});

test('a command retried with the same message id is applied once and answered with the same reply', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('once'), { type: 'OPEN' });

  const first = (await system.askAt(counter('once'), { type: 'ADD', n: 5 }, { messageId: 'msg-1' })) as CounterView;
  await system.askAt(counter('once'), { type: 'ADD', n: 7 });
  const retried = (await system.askAt(counter('once'), { type: 'ADD', n: 5 }, { messageId: 'msg-1' })) as CounterView;

  t.deepEqual(retried, first);
  t.is(first.total, '5');
  const concurrent = await Promise.all(Array.from({ length: 20 }, () => system.askAt(counter('once'), { type: 'ADD', n: 1 }, { messageId: 'msg-2' })));
  t.true(concurrent.every((reply) => JSON.stringify(reply) === JSON.stringify(concurrent[0])));
  const doc = await system.documents('counter').findOne({ _id: 'once' });
  t.deepEqual((doc!.view as unknown as CounterView).applied, [5, 7, 1]);
});

test('creating twice with the same message id answers the first creation; a new id is refused ALREADY_EXISTS', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()] });
  const created = await system.askAt(counter('dup'), { type: 'OPEN' }, { messageId: 'create-dup' });
  t.deepEqual(await system.askAt(counter('dup'), { type: 'OPEN' }, { messageId: 'create-dup' }), created);
  const error = await t.throwsAsync(system.askAt(counter('dup'), { type: 'OPEN' }), { instanceOf: CommandRejectedError });
  t.is(error.code, 'ALREADY_EXISTS');
  t.is(error.status, 409);
});

test('a message to an actor that does not exist, other than its creation, is an unknown-actor error', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()] });
  const error = await t.throwsAsync(system.askAt(counter('ghost'), { type: 'ADD', n: 1 }), { instanceOf: UnknownActorError });
  t.is(error.actorId, 'ghost');
  t.is(await system.documents('counter').count({}), 0);
});

test('a refused command answers its code and message and changes nothing', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('strict'), { type: 'OPEN' });
  const before = await system.documents('counter').findOne({ _id: 'strict' });

  const negative = await t.throwsAsync(system.askAt(counter('strict'), { type: 'ADD', n: -1 }), { instanceOf: CommandRejectedError });
  t.is(negative.code, 'INVALID_AMOUNT');
  t.is(negative.status, 400);

  await system.askAt(counter('strict'), { type: 'CLOSE' });
  const closed = await t.throwsAsync(system.askAt(counter('strict'), { type: 'ADD', n: 1 }), { instanceOf: CommandRejectedError });
  t.is(closed.code, 'EVENT_NOT_ACCEPTED');

  const after = await system.documents('counter').findOne({ _id: 'strict' });
  t.is(after!.version, before!.version + 1, 'only CLOSE was written');
  t.deepEqual((after!.view as unknown as CounterView).applied, []);
});

test('two activations of one actor forced to race: one write wins, the other reloads and redoes its turn', async (t) => {
  const store = new EmbeddedStore();
  const a = await startTestSystem({ kinds: [counterKind()], store });
  const b = await startTestSystem({ kinds: [counterKind()], store });
  await a.system.askAt(counter('raced'), { type: 'OPEN' });
  await b.system.askAt(counter('raced'), { type: 'ADD', n: 1 });

  // A still caches the version it created; its write loses, it reloads and applies on top of B's.
  const fromA = (await a.system.askAt(counter('raced'), { type: 'ADD', n: 2 })) as CounterView;
  t.deepEqual(fromA.applied, [1, 2]);
  const fromB = (await b.system.askAt(counter('raced'), { type: 'ADD', n: 3 })) as CounterView;
  t.deepEqual(fromB.applied, [1, 2, 3]);

  await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).system.askAt(counter('raced'), { type: 'ADD', n: 10 + i })));
  const doc = await a.system.documents('counter').findOne({ _id: 'raced' });
  const applied = (doc!.view as unknown as CounterView).applied;
  t.is(applied.length, 203);
  t.deepEqual(
    applied.slice(3).sort((x, y) => x - y),
    Array.from({ length: 200 }, (_, i) => 10 + i),
    'every racing command applied exactly once',
  );
  t.is(doc!.version, 204, 'OPEN and 203 ADDs; the removal of COUNTER_OPENED rode on one of them');
});

test('a delayed event is saved with its actor and fires at its due time under the test clock', async (t) => {
  const { system, clock } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('bell'), { type: 'OPEN' });
  await system.askAt(counter('bell'), { type: 'ARM', ms: 30_000 });

  const saved = await system.documents('counter').findOne({ _id: 'bell' });
  t.is(saved!.timers.length, 1);
  t.is(saved!.timers[0]!.dueAt, clock.now() + 30_000);
  t.is(saved!.nextTimerAt, clock.now() + 30_000);

  await clock.advance(29_999);
  t.is(((await system.documents('counter').findOne({ _id: 'bell' }))!.view as unknown as CounterView).rings, 0);
  await clock.advance(1);
  const fired = await system.documents('counter').findOne({ _id: 'bell' });
  t.is((fired!.view as unknown as CounterView).rings, 1);
  t.deepEqual(fired!.timers, []);
  t.is(fired!.nextTimerAt, null);

  await clock.advance(3_600_000);
  t.is(((await system.documents('counter').findOne({ _id: 'bell' }))!.view as unknown as CounterView).rings, 1, 'fires once');
});

test('a cancelled timer never fires', async (t) => {
  const { system, clock } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('quiet'), { type: 'OPEN' });
  await system.askAt(counter('quiet'), { type: 'ARM', ms: 1_000 });
  await system.askAt(counter('quiet'), { type: 'DISARM' });
  t.deepEqual((await system.documents('counter').findOne({ _id: 'quiet' }))!.timers, []);
  await clock.advance(10_000);
  t.is(((await system.documents('counter').findOne({ _id: 'quiet' }))!.view as unknown as CounterView).rings, 0);
});

test('an `after` transition arms a durable timer whose firing emits a domain event with a stable id', async (t) => {
  const { system, clock, bus } = await startTestSystem({ kinds: [counterKind()] });
  const seen: DomainEvent[] = [];
  await bus.consume({ durable: 'archive-watch', types: ['COUNTER_ARCHIVED'] }, async (event) => {
    seen.push(event);
  });
  await system.askAt(counter('archive'), { type: 'OPEN' });
  await system.askAt(counter('archive'), { type: 'CLOSE' });
  const closed = await system.documents('counter').findOne({ _id: 'archive' });
  t.is(closed!.timers.length, 1, 'CLOSED arms its 60 s timer');

  await clock.advance(60_000);
  await system.effectsIdle();
  const archived = await system.documents('counter').findOne({ _id: 'archive' });
  t.deepEqual(archived!.timers, []);
  await waitFor(() => seen.length === 1);
  t.is(seen[0]!.id, `counter:archive:${archived!.version - 1}:0`);
  t.is(seen[0]!.at, clock.now());
});

test('a timer still fires after its node is replaced by a new node over the same store', async (t) => {
  const store = new EmbeddedStore();
  const first = await startTestSystem({ kinds: [counterKind()], store });
  await first.system.askAt(counter('survivor'), { type: 'OPEN' });
  await first.system.askAt(counter('survivor'), { type: 'ARM', ms: 5 * 60_000 });
  await first.system.drain();

  const second = await startTestSystem({ kinds: [counterKind()], store, clock: first.clock });
  await first.clock.advance(5 * 60_000);
  const doc = await second.system.documents('counter').findOne({ _id: 'survivor' });
  t.is((doc!.view as unknown as CounterView).rings, 1);
});

test('idle actors leave memory and come back from the store with their state', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()], cacheSize: 3 });
  for (let i = 0; i < 10; i++) {
    await system.askAt(counter(`idle${i}`), { type: 'OPEN' });
    await system.askAt(counter(`idle${i}`), { type: 'ADD', n: i });
  }
  t.true(system.stats().liveActors <= 3);
  const again = (await system.askAt(counter('idle0'), { type: 'ADD', n: 100 })) as CounterView;
  t.deepEqual(again.applied, [0, 100]);
  t.true(system.stats().liveActors <= 3);
});

test('a drain finishes the turns in flight and the effects they queued, then refuses new messages', async (t) => {
  const labels: string[] = [];
  const { system } = await startTestSystem({ kinds: [counterKind(async (params) => void labels.push((params as { label: string }).label))] });
  await system.askAt(counter('busy'), { type: 'OPEN' });
  const inFlight = Array.from({ length: 50 }, (_, i) => system.askAt(counter('busy'), { type: 'ADD', n: i }));
  const probe = system.askAt(counter('busy'), { type: 'PROBE', label: 'queued-before-drain' });
  await system.drain();
  t.is((await Promise.all(inFlight)).length, 50);
  await probe;
  t.deepEqual(labels, ['queued-before-drain']);
  const doc = await system.documents('counter').findOne({ _id: 'busy' });
  t.is((doc!.view as unknown as CounterView).applied.length, 50);
  t.deepEqual(doc!.outbox, []);
  await t.throwsAsync(system.askAt(counter('busy'), { type: 'ADD', n: 1 }), { name: 'ShuttingDownError' });
});

test('creating an actor whose view clashes with a unique view index is refused with DUPLICATE and writes nothing', async (t) => {
  const base = counterKind();
  const kind = {
    ...base,
    viewIndexes: [...(base.viewIndexes ?? []), { key: { 'view.status': 1 as const, 'view.rings': 1 as const }, name: 'one_open_counter', unique: true }],
  };
  const { system } = await startTestSystem({ kinds: [kind] });
  await system.askAt(counter('first'), { type: 'OPEN' });

  const error = await t.throwsAsync(system.askAt(counter('second'), { type: 'OPEN' }), { instanceOf: CommandRejectedError });
  t.is(error?.code, 'DUPLICATE');
  t.is(error?.status, 409);
  t.is(await system.documents('counter').count({}), 1);
  t.truthy(await system.documents('counter').findOne({ _id: 'first' }));
});

test('when the clock jumps past several timers of one actor, they fire in the order they fall due, not the order they were armed', async (t) => {
  // A node back after an outage: a payment's 5-second poll must run before its 1-hour window, whichever was armed first.
  const { system, clock } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('late'), { type: 'OPEN' });
  await system.askAt(counter('late'), { type: 'LATER', ms: 3_600_000, n: 2 });
  await system.askAt(counter('late'), { type: 'LATER', ms: 5_000, n: 1 });
  await system.askAt(counter('late'), { type: 'LATER', ms: 60_000, n: 3 });
  t.is((await system.documents('counter').findOne({ _id: 'late' }))!.timers.length, 3);

  await clock.advance(6 * 3_600_000);
  const view = (await system.documents('counter').findOne({ _id: 'late' }))!.view as unknown as CounterView;
  t.deepEqual(view.applied, [1, 3, 2]);
});
