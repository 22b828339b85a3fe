import test from 'ava';
import { EmbeddedStore, MemoryBus, TestClock, type DomainEvent } from '../../../actors/index.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });

test('domain events are published after the write, with the id <kind>:<id>:<version>:<index>', async (t) => {
  const { system, bus } = await startTestSystem({ kinds: [counterKind()] });
  const seen: DomainEvent[] = [];
  const done = new Promise<void>(
    (resolve) =>
      void bus.consume({ durable: 'opened', types: ['COUNTER_OPENED'] }, async (event) => {
        seen.push(event);
        resolve();
      }),
  );
  await system.askAt(counter('e1'), { type: 'OPEN' });
  await done;
  t.is(seen.length, 1);
  t.like(seen[0], { id: 'counter:e1:1:0', type: 'COUNTER_OPENED', actor: { kind: 'counter', id: 'e1' }, data: { counterId: 'e1' } });
  await system.effectsIdle();
  const doc = await system.documents('counter').findOne({ _id: 'e1' });
  t.deepEqual(doc!.outbox, [], 'a done effect leaves the outbox');
  t.false(doc!.outboxPending);
});

test('a tell effect delivers its event to another actor exactly once, keyed by the effect id', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('from'), { type: 'OPEN' });
  await system.askAt(counter('to'), { type: 'OPEN' });
  await system.askAt(counter('from'), { type: 'FORWARD', to: 'to', n: 42 });
  await system.effectsIdle();
  const target = await system.documents('counter').findOne({ _id: 'to' });
  t.deepEqual((target!.view as unknown as CounterView).applied, [42]);
  t.true(target!.recentMessageIds.some((id) => id.startsWith('counter:from:')));
});

test('a tell its target refuses is not retried, so the effects behind it still run', async (t) => {
  const labels: string[] = [];
  const { system } = await startTestSystem({ kinds: [counterKind(async (params) => void labels.push((params as { label: string }).label))] });
  await system.askAt(counter('lonely'), { type: 'OPEN' });
  await system.askAt(counter('lonely'), { type: 'FORWARD', to: 'nobody', n: 1 });
  await system.askAt(counter('lonely'), { type: 'PROBE', label: 'behind' });
  await system.effectsIdle();
  t.deepEqual(labels, ['behind']);
  t.deepEqual((await system.documents('counter').findOne({ _id: 'lonely' }))!.outbox, []);
  t.is(await system.documents('counter').count({ _id: 'nobody' }), 0);
});

test('a failing effect is retried until it succeeds, and the effects behind it wait', async (t) => {
  let failures = 2;
  const labels: string[] = [];
  const kind = counterKind(async (params) => {
    const { label } = params as { label: string };
    if (label === 'flaky' && failures-- > 0) throw new Error('downstream unavailable');
    labels.push(label);
  });
  const { system, clock } = await startTestSystem({ kinds: [kind] });
  await system.askAt(counter('retry'), { type: 'OPEN' });
  await system.askAt(counter('retry'), { type: 'PROBE', label: 'flaky' });
  await system.askAt(counter('retry'), { type: 'PROBE', label: 'after' });
  await system.effectsIdle();
  t.deepEqual(labels, [], 'the failed effect waits for its backoff, and the one behind it waits too');
  const waiting = await system.documents('counter').findOne({ _id: 'retry' });
  t.like(waiting!.outbox[0], { attempts: 1, lastError: 'downstream unavailable' });
  for (let i = 0; i < 2; i++) {
    await clock.advance(60_000);
    await system.effectsIdle();
  }
  t.deepEqual(labels, ['flaky', 'after']);
  t.is(failures, -1);
});

test('an effect saved by a node that died before running it runs on the node that takes over', async (t) => {
  const store = new EmbeddedStore();
  const clock = new TestClock();
  let release: () => void = () => {};
  const blocked = new Promise<void>((resolve) => (release = resolve));
  const ran: string[] = [];
  const stuck = await startTestSystem({
    kinds: [
      counterKind(async (params) => {
        await blocked;
        ran.push(`dead:${(params as { label: string }).label}`);
      }),
    ],
    store,
    clock,
  });
  await stuck.system.askAt(counter('orphan'), { type: 'OPEN' });
  await stuck.system.askAt(counter('orphan'), { type: 'PROBE', label: 'receipt' });
  const saved = await stuck.system.documents('counter').findOne({ _id: 'orphan' });
  t.true(saved!.outboxPending, 'the effect is in the store before it runs');
  await stuck.system.halt();

  const heir = await startTestSystem({
    kinds: [counterKind(async (params) => void ran.push(`heir:${(params as { label: string }).label}`))],
    store,
    clock,
    bus: new MemoryBus(),
  });
  await heir.system.effectsIdle();
  t.deepEqual(ran, ['heir:receipt']);
  const doc = await heir.system.documents('counter').findOne({ _id: 'orphan' });
  t.deepEqual(doc!.outbox, []);
  release();
});
