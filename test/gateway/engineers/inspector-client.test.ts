/**
 * The engineers' page's inspector logic, without a browser: a state value to the chart
 * ids to highlight, a turn in words, the history pager and the steps through time, the
 * address a link opens; and the page's copy of the API's shapes, held to the schemas.
 */
import test from 'ava';
import type { z } from 'zod';
import type { ChartState } from '../../../machines/charts/chart-graph.js';
import { chartDefinition } from '../../../machines/charts/index.js';
import { paymentMachine } from '../../../machines/payment/index.js';
import type { actorAsOf, actorSearch, inspectedActor, turnPage } from '../../../gateway/schemas/inspector-schemas.js';
import type { sentEvent } from '../../../gateway/schemas/actor-event-schemas.js';
import type { orderSequence } from '../../../gateway/schemas/sequence-schemas.js';
import type { watchlist } from '../../../gateway/schemas/watchlist-schemas.js';
import { activeStateIds, stateLabel } from '../../../gateway/engineers/client/active-states.js';
import { HistoryPager } from '../../../gateway/engineers/client/history-pager.js';
import type {
  ActorAsOf,
  ActorSearch,
  InspectedActor,
  OrderSequence,
  SentEvent,
  Turn,
  TurnPage,
  Watchlist,
} from '../../../gateway/engineers/client/inspector-types.js';
import { actorAddress, readAddress } from '../../../gateway/engineers/client/page-address.js';
import { stepBack, stepForward, travelLabel } from '../../../gateway/engineers/client/time-travel.js';
import { effectsOf } from '../../../gateway/engineers/client/turn-effects.js';
import { contextDiff } from '../../../gateway/engineers/client/context-diff.js';
import { foldTurns } from '../../../gateway/engineers/client/turn-folding.js';
import { senderOf } from '../../../gateway/engineers/client/turn-links.js';

// The page's types must be the schemas' both ways: this fails the type-check, not a test run.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const shapesAgree: [
  Same<InspectedActor, z.infer<typeof inspectedActor>>,
  Same<TurnPage, z.infer<typeof turnPage>>,
  Same<ActorAsOf, z.infer<typeof actorAsOf>>,
  Same<ActorSearch, z.infer<typeof actorSearch>>,
  Same<Watchlist, z.infer<typeof watchlist>>,
  Same<SentEvent, z.infer<typeof sentEvent>>,
  Same<OrderSequence, z.infer<typeof orderSequence>>,
] = [true, true, true, true, true, true, true];

const state = (id: string, type: ChartState['type'], states: ChartState[] = []): ChartState => ({
  id,
  key: id.split('.').at(-1)!,
  type,
  entry: [],
  exit: [],
  transitions: [],
  states,
});

test('the page’s copies of the inspector’s shapes are the schemas’ own', (t) => {
  t.deepEqual(shapesAgree, [true, true, true, true, true, true, true]);
});

test('a state value is the machine, each state it names and their ancestors, as the chart’s ids', (t) => {
  const payment = chartDefinition(paymentMachine).root;
  t.deepEqual(activeStateIds(payment, { CREATED: 'AWAITING_PAYMENT' }), ['payment', 'payment.CREATED', 'payment.CREATED.AWAITING_PAYMENT']);
  t.deepEqual(activeStateIds(payment, 'EXPIRED'), ['payment', 'payment.EXPIRED']);

  const parallel = state('m', 'compound', [
    state('m.RUNNING', 'parallel', [
      state('m.RUNNING.a', 'compound', [state('m.RUNNING.a.X', 'atomic')]),
      state('m.RUNNING.b', 'compound', [state('m.RUNNING.b.Y', 'atomic')]),
    ]),
  ]);
  t.deepEqual(activeStateIds(parallel, { RUNNING: { a: 'X', b: 'Y' } }), ['m', 'm.RUNNING', 'm.RUNNING.a', 'm.RUNNING.a.X', 'm.RUNNING.b', 'm.RUNNING.b.Y']);

  // A state with an id of its own in the machine is found by its key, not by a guessed path.
  const ownId = state('m', 'compound', [{ ...state('m.A', 'compound', [{ ...state('custom', 'atomic'), key: 'B' }]), key: 'A' }]);
  t.deepEqual(activeStateIds(ownId, { A: 'B' }), ['m', 'm.A', 'custom']);
  t.deepEqual(
    activeStateIds(payment, { GONE: 'NOWHERE' }),
    ['payment'],
    'a state the chart lacks (another machine version) highlights nothing under the machine',
  );
});

test('a state value in one line', (t) => {
  t.is(stateLabel('CREATED'), 'CREATED');
  t.is(stateLabel({ CREATED: 'AWAITING_PAYMENT' }), 'CREATED.AWAITING_PAYMENT');
  t.is(stateLabel({ RUNNING: { a: 'X', b: 'Y' } }), 'RUNNING.{a.X, b.Y}');
  t.is(stateLabel(null), '∅');
});

const turn = (version: number, effects: Partial<Turn['effects']> = {}): Turn => ({
  version,
  at: '2026-11-23T12:00:00.000Z',
  messageId: `m${version}`,
  event: { type: 'E' },
  timer: null,
  stateBefore: null,
  stateAfter: 'A',
  effects: { outbox: [], timersSet: [], timersCancelled: [], ...effects },
});

test('a turn’s effects in words: emits, tells, other effects, timers set and cancelled', (t) => {
  t.deepEqual(
    effectsOf(
      turn(1, {
        outbox: [
          { id: 'o1', type: 'event', event: 'ORDER_CREATED' },
          { id: 'o2', type: 'tell', to: 'order:ord_1', event: 'PAYMENT_UPDATED' },
          { id: 'o3', type: 'signalIntent' },
        ],
        timersSet: [{ id: 't1', dueAt: '2026-11-23T13:00:00.000Z', event: 'xstate.after.window.payment.CREATED' }],
        timersCancelled: ['t0'],
      }),
    ),
    [
      'emit ORDER_CREATED',
      'tell order:ord_1 PAYMENT_UPDATED',
      'signalIntent',
      'set xstate.after.window.payment.CREATED at 2026-11-23T13:00:00.000Z',
      'cancel t0',
    ],
  );
  t.deepEqual(effectsOf(turn(2)), ['—']);
});

/** A turn taking `type` from state `before` to `after`, by a timer when `timer` is set. */
const step = (type: string, before: string, after: string, timer: string | null = null): Turn => ({
  ...turn(0),
  event: { type },
  stateBefore: before,
  stateAfter: after,
  timer,
});

test('polling folded: repeats of one turn, or of a pair (a transaction’s timer and NOT_MINED), are one row with a count', (t) => {
  const tick = step('xstate.after.checkEvery', 'SUBMITTED.waiting', 'SUBMITTED.checking', 'checkEvery');
  const notMined = step('NOT_MINED', 'SUBMITTED.checking', 'SUBMITTED.waiting');
  const turns = [
    step('PREPARE', 'x', 'SUBMITTED.waiting'),
    tick,
    notMined,
    tick,
    notMined,
    tick,
    notMined,
    tick,
    step('RECEIPT', 'SUBMITTED.checking', 'MINED'),
  ];
  t.deepEqual(foldTurns(turns), [
    { first: 0, last: 0, period: 1, count: 1 },
    { first: 1, last: 6, period: 2, count: 3 },
    { first: 7, last: 7, period: 1, count: 1 },
    { first: 8, last: 8, period: 1, count: 1 },
  ]);
  const same = step('PAYMENT_UPDATED', 'CREATED', 'CREATED');
  t.deepEqual(foldTurns([same, same, same, step('CANCEL', 'CREATED', 'CANCELLED')]), [
    { first: 0, last: 2, period: 1, count: 3 },
    { first: 3, last: 3, period: 1, count: 1 },
  ]);
  t.deepEqual(
    foldTurns([same, step('PAYMENT_UPDATED', 'CREATED', 'PAID'), same]).map((row) => row.count),
    [1, 1, 1],
    'a different state is not a repeat',
  );
  t.deepEqual(foldTurns([]), []);
});

test('a turn’s sender from its message id', (t) => {
  t.deepEqual(senderOf({ messageId: 'payment:pay_1:3:0', timer: null }), { actor: { kind: 'payment', id: 'pay_1' } });
  t.deepEqual(senderOf({ messageId: 'payment:pay_1:3:1:refused', timer: null }), { actor: { kind: 'payment', id: 'pay_1' } });
  t.deepEqual(senderOf({ messageId: 'admin-api:req-1', timer: null }), { from: 'admin API' });
  t.deepEqual(senderOf({ messageId: 'timer:t@1', timer: 't' }), { from: 'timer' });
  t.deepEqual(senderOf({ messageId: 'c71de6aa-3c63-450b-ac20-da44335e7e89', timer: null }), { from: 'outside' });
  t.deepEqual(senderOf({ messageId: 'order:ord_1', timer: null }), { from: 'outside' }, 'an id that is no outbox entry');
});

test('the context’s difference: changed, added and removed paths, into lists, a bigint as one value', (t) => {
  t.deepEqual(
    contextDiff(
      { status: 'A', amount: { __bigint: '1' }, settlements: [1], payments: [{ id: 'p', status: 'CREATED' }], nested: { keep: 1, drop: 2 } },
      { status: 'B', amount: { __bigint: '2' }, settlements: [1, 2], payments: [{ id: 'p', status: 'SETTLED' }], nested: { keep: 1, add: 3 } },
    ),
    [
      { path: 'amount', before: { __bigint: '1' }, after: { __bigint: '2' } },
      { path: 'nested.add', before: undefined, after: 3 },
      { path: 'nested.drop', before: 2, after: undefined },
      { path: 'payments[0].status', before: 'CREATED', after: 'SETTLED' },
      { path: 'settlements[1]', before: undefined, after: 2 },
      { path: 'status', before: 'A', after: 'B' },
    ],
  );
  t.deepEqual(contextDiff({ list: null }, { list: [1] }), [{ path: 'list', before: null, after: [1] }], 'a value that became a list is one change');
  t.deepEqual(contextDiff({ a: 1 }, { a: 1 }), []);
  t.deepEqual(contextDiff({}, { secret: '[redacted]' }), [{ path: 'secret', before: undefined, after: '[redacted]' }]);
});

/** A history of `count` turns, versions skipping as maintenance writes make them, served in pages. */
function served(count: number) {
  const all = Array.from({ length: count }, (_, index) => turn(index * 2 + 1));
  const asked: Array<[number, number]> = [];
  const fetch = async (after: number, limit: number): Promise<TurnPage> => {
    asked.push([after, limit]);
    const turns = all.filter((one) => one.version > after).slice(0, limit);
    const hasMore = all.some((one) => one.version > (turns.at(-1)?.version ?? after));
    return { kind: 'k', id: 'i', turns, hasMore, nextAfter: hasMore ? turns.at(-1)!.version : null, limit };
  };
  return { all, asked, fetch };
}

test('the pager reads page after page from nextAfter, and nothing past the last', async (t) => {
  const history = served(5);
  const pager = new HistoryPager(history.fetch, 2);
  t.true(pager.hasMore);
  await pager.more();
  t.deepEqual(
    pager.turns.map((one) => one.version),
    [1, 3],
  );
  await pager.more();
  await pager.more();
  t.false(pager.hasMore);
  t.deepEqual(await pager.more(), []);
  t.deepEqual(pager.turns, history.all);
  t.deepEqual(history.asked, [
    [0, 2],
    [3, 2],
    [7, 2],
  ]);

  const rest = served(5);
  const all = new HistoryPager(rest.fetch, 2);
  await all.more();
  await all.rest();
  t.deepEqual(all.turns, rest.all);
  t.deepEqual(
    rest.asked,
    [
      [0, 2],
      [3, 100],
    ],
    'the rest in the largest pages',
  );
});

test('steps through time: back from now is the newest turn, forward past it is now again', async (t) => {
  const pager = new HistoryPager(served(5).fetch, 2);
  await pager.more();
  t.is(await stepBack(pager, null), 4, 'every page read to find the newest');
  t.is(travelLabel(pager, 4), 'viewing turn 5 of 5');
  t.is(await stepBack(pager, 4), 3);
  t.is(await stepBack(pager, 0), 0, 'nothing before the first');
  t.is(await stepForward(pager, 3), 4);
  t.is(await stepForward(pager, 4), null);
  t.is(await stepForward(pager, null), null);

  const paged = new HistoryPager(served(5).fetch, 2);
  await paged.more();
  t.is(travelLabel(paged, 1), 'viewing turn 2 of 2+', 'more unread');
  t.is(await stepForward(paged, 1), 2, 'the next page read when the step needs it');
  t.is(paged.turns.length, 4);

  const empty = new HistoryPager(served(0).fetch);
  await empty.more();
  t.is(await stepBack(empty, null), null, 'no turn to go back to');
});

test('the address opens a machine’s chart or an actor, and an actor’s link reads back', (t) => {
  t.deepEqual(readAddress('#payment'), { machine: 'payment' });
  t.deepEqual(readAddress('#payment/pay_Dxewf75fPMBcBVpUNFC7ptrP'), { kind: 'payment', id: 'pay_Dxewf75fPMBcBVpUNFC7ptrP' });
  t.deepEqual(readAddress(actorAddress('maker-record', 'a/b c')), { kind: 'maker-record', id: 'a/b c' });
  for (const nothing of ['', '#', '#payment/', '#/pay_x', '#a/b/c', '#%E0%A4%A']) t.is(readAddress(nothing), null, nothing);
});
