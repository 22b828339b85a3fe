import test from 'ava';
import { assign, raise, setup } from 'xstate';
import { defineKind, type DeadLetter, type MessageRefusedEvent, type RetryPolicy } from '../../../actors/index.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

const POLICY: RetryPolicy = { baseMs: 1_000, maxBackoffMs: 4_000, maxAttempts: 3, maxAgeMs: 60 * 60 * 1000 };
const counter = (id: string) => ({ kind: 'counter', id });

/** A sender whose machine takes MESSAGE_REFUSED: it records each refusal it hears of. */
const courierMachine = setup({
  types: {
    context: {} as { refusals: Array<{ to: string; code: string; type: string }> },
    events: {} as { type: 'HIRE' } | { type: 'SEND'; to: string; n: number } | MessageRefusedEvent,
  },
  actions: { tell: (_, _params: unknown) => {} },
}).createMachine({
  id: 'courier',
  context: { refusals: [] },
  on: {
    SEND: {
      actions: {
        type: 'tell',
        params: ({ event }: { event: { to: string; n: number } }) => ({ to: { kind: 'counter', id: event.to }, event: { type: 'ADD', n: event.n } }),
      },
    },
    MESSAGE_REFUSED: {
      actions: assign({ refusals: ({ context, event }) => [...context.refusals, { to: event.to.id, code: event.code, type: event.event.type }] }),
    },
  },
});

const courierKind = defineKind({
  name: 'courier',
  machine: courierMachine,
  machineVersion: 1,
  createdBy: ['HIRE'],
  input: () => ({}),
  view: (snapshot) => ({ refusals: (snapshot.context as { refusals: unknown[] }).refusals }),
});

test('a tell its target refuses reaches the sending machine as MESSAGE_REFUSED with the code', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind(), courierKind] });
  await system.askAt(counter('target'), { type: 'OPEN' });
  await system.askAt({ kind: 'courier', id: 'c1' }, { type: 'HIRE' });
  await system.askAt({ kind: 'courier', id: 'c1' }, { type: 'SEND', to: 'target', n: -5 });
  await system.askAt({ kind: 'courier', id: 'c1' }, { type: 'SEND', to: 'missing', n: 1 });
  await system.effectsIdle();

  const view = (await system.documents('courier').findOne({ _id: 'c1' }))!.view;
  t.deepEqual(view.refusals, [
    { to: 'target', code: 'INVALID_AMOUNT', type: 'ADD' },
    { to: 'missing', code: 'UNKNOWN_ACTOR', type: 'ADD' },
  ]);
  t.is(await system.deadLetters.count(), 0);
});

test('a refused tell from a kind with no MESSAGE_REFUSED handler is a dead letter that can be retried or discarded', async (t) => {
  const { system } = await startTestSystem({ kinds: [counterKind()] });
  await system.askAt(counter('sender'), { type: 'OPEN' });
  await system.askAt(counter('sender'), { type: 'FORWARD', to: 'later', n: 4 });
  await system.askAt(counter('sender'), { type: 'FORWARD', to: 'never', n: 9 });
  await system.effectsIdle();

  const { letters } = await system.deadLetters.list({ status: 'OPEN', limit: 10 });
  t.is(letters.length, 2);
  const byTarget = (id: string) => letters.find((letter) => JSON.stringify(letter.payload).includes(`"id":"${id}"`)) as DeadLetter;
  t.like(byTarget('later'), { source: 'refusal', actor: { kind: 'counter', id: 'sender' }, error: { code: 'UNKNOWN_ACTOR' }, status: 'OPEN' });

  await system.askAt(counter('later'), { type: 'OPEN' });
  await system.deadLetters.retry(byTarget('later')._id, 'test');
  await system.effectsIdle();
  const later = (await system.documents('counter').findOne({ _id: 'later' }))!.view as unknown as CounterView;
  t.deepEqual(later.applied, [4], 'the retried tell is delivered once');

  const discarded = await system.deadLetters.discard(byTarget('never')._id, 'the counter was never opened', 'test');
  t.like(discarded, { status: 'DISCARDED', resolution: 'the counter was never opened' });
  t.is(await system.deadLetters.count('OPEN'), 0);
  t.is(await system.deadLetters.count('RETRIED'), 1);
  await t.throwsAsync(system.deadLetters.retry(discarded._id, 'test'), { message: /DISCARDED/ });
});

test('an effect that always fails stops after the retry policy, becomes a dead letter, and stops blocking the next effect', async (t) => {
  let broken = true;
  const ran: string[] = [];
  const kind = counterKind(async (params) => {
    const { label } = params as { label: string };
    if (label === 'doomed' && broken) throw new Error('the downstream refuses this forever');
    ran.push(label);
  });
  const { system, clock } = await startTestSystem({ kinds: [kind], retryPolicy: POLICY });
  await system.askAt(counter('worker'), { type: 'OPEN' });
  await system.askAt(counter('worker'), { type: 'PROBE', label: 'doomed' });
  await system.askAt(counter('worker'), { type: 'PROBE', label: 'next' });
  for (let i = 0; i < 5; i++) {
    await system.effectsIdle();
    await clock.advance(POLICY.maxBackoffMs);
  }
  await system.effectsIdle();

  t.deepEqual(ran, ['next']);
  const doc = await system.documents('counter').findOne({ _id: 'worker' });
  t.deepEqual(doc!.outbox, [], 'the outbox does not grow with a failing effect');
  const [letter] = (await system.deadLetters.list({ source: 'effect', limit: 10 })).letters;
  t.like(letter, { source: 'effect', attempts: 3, error: { message: 'the downstream refuses this forever' }, payload: { type: 'probe' } });

  broken = false;
  await system.deadLetters.retry(letter!._id, 'test');
  await system.effectsIdle();
  t.deepEqual(ran, ['next', 'doomed'], 'a retried letter runs again with a fresh budget');
});

/** Timers whose firing throws on actors named bad-…, as a machine bug would. */
const alarmMachine = setup({
  types: { context: {} as { id: string; rang: number }, events: {} as { type: 'SET'; ms: number } | { type: 'RING' } | { type: 'CREATE' } },
}).createMachine({
  id: 'alarm',
  context: ({ input }) => ({ id: (input as { id: string }).id, rang: 0 }),
  on: {
    SET: { actions: raise({ type: 'RING' }, { id: 'ring', delay: ({ event }) => event.ms }) },
    RING: {
      actions: assign({
        rang: ({ context }) => {
          if (context.id.startsWith('bad-') && (globalThis as { alarmsBroken?: boolean }).alarmsBroken) throw new Error('the bell is broken');
          return context.rang + 1;
        },
      }),
    },
  },
});

const alarmKind = defineKind({
  name: 'alarm',
  machine: alarmMachine,
  machineVersion: 1,
  createdBy: ['CREATE'],
  input: (_event, id) => ({ id }),
  view: (snapshot) => ({ rang: (snapshot.context as { rang: number }).rang }),
});

test.serial('a timer that always fails becomes a dead letter after the policy and does not starve 500 later timers', async (t) => {
  (globalThis as { alarmsBroken?: boolean }).alarmsBroken = true;
  t.teardown(() => delete (globalThis as { alarmsBroken?: boolean }).alarmsBroken);
  const { system, clock } = await startTestSystem({ kinds: [alarmKind], retryPolicy: POLICY });
  const alarm = (id: string) => ({ kind: 'alarm', id });
  await system.askAt(alarm('bad-1'), { type: 'CREATE' });
  await system.askAt(alarm('bad-1'), { type: 'SET', ms: 1_000 });
  for (let i = 0; i < 500; i++) {
    await system.askAt(alarm(`good-${i}`), { type: 'CREATE' });
    await system.askAt(alarm(`good-${i}`), { type: 'SET', ms: 2_000 + i });
  }
  for (let i = 0; i < 6; i++) await clock.advance(POLICY.maxBackoffMs);

  t.is(await system.documents('alarm').count({ 'view.rang': 1 }), 500, 'every later timer fired once');
  const bad = await system.documents('alarm').findOne({ _id: 'bad-1' });
  t.deepEqual(bad!.timers, [], 'the failing row left the actor');
  const [letter] = (await system.deadLetters.list({ source: 'timer', limit: 10 })).letters;
  t.like(letter, { source: 'timer', actor: { kind: 'alarm', id: 'bad-1' }, attempts: 3, error: { message: 'the bell is broken' } });

  (globalThis as { alarmsBroken?: boolean }).alarmsBroken = false;
  await system.deadLetters.retry(letter!._id, 'test');
  await clock.advance(1);
  t.is((await system.documents('alarm').findOne({ _id: 'bad-1' }))!.view.rang, 1, 'a retried timer is re-armed and fires');
});
