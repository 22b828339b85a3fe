/**
 * Test clocks in the runtime (docs/test-clocks.md): an actor attached to a `test-clock`
 * actor runs its turns at that clock's time, the node's timer scheduler leaves its timers
 * alone, and advancing the clock fires them in due order, each at its own due time,
 * including timers the firings themselves set.
 */
import test from 'ava';
import { assign, enqueueActions, raise, setup } from 'xstate';
import { CommandRejectedError, defineKind, withEffects, type ActorSystem } from '../../../actors/index.js';
import { reportToSelf } from '../../../actors/runtime/effect-report.js';
import { testClockKindOn, type TestClockView } from '../../../actors/kinds/test-clock-kind.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const START = Date.UTC(2026, 0, 1);
const iso = (ms: number) => new Date(ms).toISOString();

/** Rings every ten minutes, `left` times: each firing arms the next, so an advance must look again after each. */
const chimeMachine = setup({
  types: { context: {} as { left: number; rang: number }, events: {} as { type: 'START'; left: number } | { type: 'CHIME' }, input: {} as { left: number } },
}).createMachine({
  id: 'chime',
  context: ({ input }) => ({ left: input.left, rang: 0 }),
  entry: raise({ type: 'CHIME' }, { id: 'chime', delay: 10 * MINUTE }),
  on: {
    CHIME: {
      guard: ({ context }) => context.left > 0,
      actions: [assign(({ context }) => ({ left: context.left - 1, rang: context.rang + 1 })), raise({ type: 'CHIME' }, { id: 'chime', delay: 10 * MINUTE })],
    },
  },
});
const chimeKind = defineKind({
  name: 'chime',
  machine: chimeMachine,
  machineVersion: 1,
  createdBy: ['START'],
  view: (snapshot) => ({ rang: (snapshot.context as { rang: number }).rang }),
});

/**
 * Looks every ten minutes, `left` times, through an effect: the next look is armed only by
 * the effect's report, as a webhook's retry is armed by its attempt's. The report says when
 * the effect ran, on the actor's clock.
 */
const lookoutMachine = setup({
  types: {
    context: {} as { left: number; seen: string[] },
    events: {} as { type: 'START'; left: number } | { type: 'LOOK' } | { type: 'LOOKED'; at: string },
    input: {} as { left: number },
  },
  actions: { look: (_, _params: { left: number }) => {} },
}).createMachine({
  id: 'lookout',
  context: ({ input }) => ({ left: input.left, seen: [] }),
  entry: raise({ type: 'LOOK' }, { id: 'look', delay: 10 * MINUTE }),
  on: {
    LOOK: { actions: { type: 'look', params: ({ context }) => ({ left: context.left }) } },
    LOOKED: {
      actions: [
        assign(({ context, event }) => ({ left: context.left - 1, seen: [...context.seen, event.at] })),
        enqueueActions(({ context, enqueue }) => {
          if (context.left > 0) enqueue.raise({ type: 'LOOK' }, { id: 'look', delay: 10 * MINUTE });
        }),
      ],
    },
  },
});
const lookoutKind = withEffects(
  defineKind({
    name: 'lookout',
    machine: lookoutMachine,
    machineVersion: 1,
    createdBy: ['START'],
    view: (snapshot) => ({ seen: (snapshot.context as { seen: string[] }).seen }),
  }),
  {
    look: async (_params, context) => {
      // A while, as a request over the network takes: an advance that did not wait would look for the next timer too soon.
      await new Promise((resolve) => setTimeout(resolve, 25));
      await reportToSelf(context, { type: 'LOOKED', at: iso(await context.actorNow()) });
    },
  },
);

async function start() {
  let system: ActorSystem | undefined;
  const clocks = testClockKindOn({
    dueOnClock: (clockId, until) => system!.dueOnClock(clockId, until),
    effectsSettledOnClock: (clockId, limitMs) => system!.effectsSettledOnClock(clockId, limitMs),
  });
  const started = await startTestSystem({ kinds: [clocks, counterKind(), chimeKind, lookoutKind] });
  system = started.system;
  await system.askAt(
    { kind: 'test-clock', id: 'clk' },
    { type: 'CREATE', id: 'clk', merchantId: 'mer', name: null, frozenTime: iso(START), at: iso(started.clock.now()) },
  );
  const advance = async (frozenTime: number) => {
    await system!.askAt({ kind: 'test-clock', id: 'clk' }, { type: 'ADVANCE', frozenTime: iso(frozenTime), at: iso(started.clock.now()) });
    await system!.effectsIdle();
  };
  const doc = (kind: string, id: string) => system!.documents(kind).findOne({ _id: id });
  return { ...started, system, advance, doc };
}

test('an attached actor is created at the clock’s time, and its timer waits for the clock, not the node', async (t) => {
  const { system, clock, advance, doc } = await start();
  await clock.advance(3 * HOUR);
  await system.askAt({ kind: 'counter', id: 'on-clock' }, { type: 'OPEN', clockId: 'clk' });
  await system.askAt({ kind: 'counter', id: 'on-clock' }, { type: 'ARM', ms: HOUR });
  await system.askAt({ kind: 'counter', id: 'real' }, { type: 'OPEN' });
  await system.askAt({ kind: 'counter', id: 'real' }, { type: 'ARM', ms: HOUR });
  const attached = await doc('counter', 'on-clock');
  t.is(attached!.clockId, 'clk');
  t.is(attached!.createdAt, START, 'the clock stands at its frozen time while the node has moved three hours');
  t.is(attached!.timers[0]!.dueAt, START + HOUR);
  t.false('clockId' in (await doc('counter', 'real'))!, 'an actor on the node’s clock carries no clockId');

  await clock.advance(5 * HOUR);
  await system.effectsIdle();
  t.is(((await doc('counter', 'on-clock'))!.view as unknown as CounterView).rings, 0, 'the node’s clock passing the due time fires nothing');
  t.is(((await doc('counter', 'real'))!.view as unknown as CounterView).rings, 1);

  await advance(START + HOUR - 1);
  t.is(((await doc('counter', 'on-clock'))!.view as unknown as CounterView).rings, 0, 'an advance short of the due time fires nothing');
  await advance(START + 2 * HOUR);
  const fired = await doc('counter', 'on-clock');
  t.is((fired!.view as unknown as CounterView).rings, 1);
  const turns = await system.history.page({ kind: 'counter', id: 'on-clock' }, 0, 10);
  t.deepEqual(
    turns.map((turn) => [turn.timer, turn.at]),
    [
      [null, START],
      [null, START],
      ['bell', START + HOUR],
    ],
    'the firing ran at its own due time',
  );
  t.is(((await doc('counter', 'real'))!.view as unknown as CounterView).rings, 1, 'the actor on the node’s clock is untouched by the test clock');
  const settled = (await doc('test-clock', 'clk'))!.view as unknown as TestClockView;
  t.like(settled.clock, { status: 'ready', frozenTime: iso(START + 2 * HOUR), advancingTo: null });
});

test('an advance fires the timers its firings set while they fall before the target, each at its due time', async (t) => {
  const { system, advance, doc } = await start();
  await system.askAt({ kind: 'chime', id: 'c' }, { type: 'START', left: 10, clockId: 'clk' });
  await advance(START + 35 * MINUTE);
  t.is(((await doc('chime', 'c'))!.view as { rang: number }).rang, 3, 'at 10, 20 and 30 minutes');
  const chime = await doc('chime', 'c');
  t.is(chime!.timers[0]!.dueAt, START + 40 * MINUTE, 'the next one waits for the next advance');
  const turns = await system.history.page({ kind: 'chime', id: 'c' }, 0, 10);
  t.deepEqual(
    turns.map((turn) => turn.at),
    [START, START + 10 * MINUTE, START + 20 * MINUTE, START + 30 * MINUTE],
  );
  t.is(((await doc('test-clock', 'clk'))!.view as unknown as TestClockView).clock.frozenTime, iso(START + 35 * MINUTE));
});

test('an advance lets the effects of each firing run at its time, so a timer their report arms falls due in the same advance', async (t) => {
  const { system, clock, advance, doc } = await start();
  await system.askAt({ kind: 'lookout', id: 'l' }, { type: 'START', left: 3, clockId: 'clk' });
  await clock.advance(HOUR);
  await advance(START + 35 * MINUTE);
  t.deepEqual(
    ((await doc('lookout', 'l'))!.view as { seen: string[] }).seen,
    [iso(START + 10 * MINUTE), iso(START + 20 * MINUTE), iso(START + 30 * MINUTE)],
    'each effect reported at its firing’s time on the clock, not the node’s',
  );
});

test('an advance must move the clock forward, by at most two years, and not while one runs', async (t) => {
  const { system, clock } = await start();
  const ask = (frozenTime: string) => system.askAt({ kind: 'test-clock', id: 'clk' }, { type: 'ADVANCE', frozenTime, at: iso(clock.now()) });
  t.is((await t.throwsAsync(ask(iso(START)), { instanceOf: CommandRejectedError }))!.code, 'TEST_CLOCK_TIME_NOT_LATER');
  t.is((await t.throwsAsync(ask(iso(START + 731 * 24 * HOUR)), { instanceOf: CommandRejectedError }))!.code, 'TEST_CLOCK_ADVANCE_TOO_FAR');
  const advancing = (await ask(iso(START + HOUR))) as TestClockView;
  t.is(advancing.clock.status, 'advancing');
  const busy = await t.throwsAsync(ask(iso(START + 2 * HOUR)), { instanceOf: CommandRejectedError });
  t.like(busy, { code: 'TEST_CLOCK_ADVANCING', status: 409 });
  await system.effectsIdle();
  t.is(((await ask(iso(START + 2 * HOUR))) as TestClockView).clock.status, 'advancing', 'once the first settles, the next is taken');
});

test('a deleted clock stops an advance and keeps its time for the actors attached to it', async (t) => {
  const { system, clock, advance, doc } = await start();
  await system.askAt({ kind: 'counter', id: 'on-clock' }, { type: 'OPEN', clockId: 'clk' });
  await advance(START + HOUR);
  await clock.advance(HOUR);
  await system.askAt({ kind: 'test-clock', id: 'clk' }, { type: 'DELETE', at: iso(clock.now()) });
  await system.askAt({ kind: 'counter', id: 'on-clock' }, { type: 'ADD', n: 1 });
  await system.effectsIdle();
  const turns = await system.history.page({ kind: 'counter', id: 'on-clock' }, 1, 10);
  t.deepEqual(
    turns.map((turn) => turn.at),
    [START + HOUR],
  );
  t.is(((await doc('test-clock', 'clk'))!.view as unknown as TestClockView).status, 'DELETED');
});
