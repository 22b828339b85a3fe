import test from 'ava';
import { and, assign, emit, not, setup } from 'xstate';
import { chartDefinition, chartStates, renderChart, stateLines, transitionLines, type ChartState } from '../../../machines/charts/index.js';

/** Small, but with every notation: nesting, a final state, guards, fixed, named and computed delays, effects and emits. */
const checkout = setup({
  types: { context: {} as { waitMs: number; reminders: number } },
  delays: { grace: 90_000, computed: ({ context }) => context.waitMs },
  guards: { paid: () => true, large: () => false },
  actions: {
    notify: (_, _params: { channel: string }) => {},
    countReminder: assign(({ context }) => ({ reminders: context.reminders + 1 })),
    announcePaid: emit({ type: 'CHECKOUT_PAID' }),
  },
}).createMachine({
  id: 'testCheckout',
  context: { waitMs: 5_000, reminders: 0 },
  initial: 'open',
  states: {
    open: {
      initial: 'waiting',
      entry: { type: 'notify', params: { channel: 'ops' } },
      after: { 3600000: { target: 'expired' } },
      states: {
        waiting: {
          on: {
            PAY: { guard: 'paid', target: '#testCheckout.closed', actions: ['countReminder', 'announcePaid'] },
            NUDGE: { actions: { type: 'notify', params: { channel: 'customer' } } },
          },
          after: { grace: { target: 'reminded', actions: 'countReminder' } },
        },
        reminded: {
          on: { PAY: { guard: and(['paid', not('large')]), target: '#testCheckout.closed' } },
          after: { computed: 'waiting' },
        },
      },
    },
    expired: { type: 'final', entry: emit({ type: 'CHECKOUT_EXPIRED' }) },
    closed: { type: 'final' },
  },
});

function find(states: ChartState[], id: string): ChartState {
  const found = states.find((state) => state.id === id);
  if (!found) throw new Error(`no state ${id}`);
  return found;
}

test('the definition is the machine’s states tree, nested, with initial states and final states', (t) => {
  const definition = chartDefinition(checkout);
  t.is(definition.name, 'test-checkout', 'the id in kebab case');
  t.is(definition.root.initial, 'testCheckout.open');
  t.deepEqual(
    definition.root.states.map((state) => [state.key, state.type]),
    [
      ['open', 'compound'],
      ['expired', 'final'],
      ['closed', 'final'],
    ],
  );
  const open = definition.root.states[0]!;
  t.is(open.initial, 'testCheckout.open.waiting');
  t.deepEqual(
    open.states.map((state) => state.id),
    ['testCheckout.open.waiting', 'testCheckout.open.reminded'],
  );
  t.is(chartStates(definition).length, 5);
  t.deepEqual(JSON.parse(JSON.stringify(definition)), definition, 'plain JSON');
});

test('transitions carry their event, guard, delay, actions and targets', (t) => {
  const states = chartStates(chartDefinition(checkout));
  const open = find(states, 'testCheckout.open');
  // xstate's own timer for the `after` (a raise on entry, a cancel on exit) is not an action of the chart.
  t.deepEqual(open.entry, [{ type: 'notify', kind: 'effect', params: { channel: 'ops' } }]);
  t.deepEqual(open.exit, []);
  t.deepEqual(open.transitions, [{ event: null, delay: { label: '1h', ms: 3_600_000 }, actions: [], targets: ['testCheckout.expired'] }]);

  const waiting = find(states, 'testCheckout.open.waiting');
  t.deepEqual(waiting.transitions, [
    {
      event: 'PAY',
      guard: 'paid',
      actions: [
        { type: 'countReminder', kind: 'assign' },
        { type: 'announcePaid', kind: 'emit' },
      ],
      targets: ['testCheckout.closed'],
    },
    { event: 'NUDGE', actions: [{ type: 'notify', kind: 'effect', params: { channel: 'customer' } }], targets: [] },
    {
      event: null,
      delay: { label: '1m 30s', name: 'grace', ms: 90_000 },
      actions: [{ type: 'countReminder', kind: 'assign' }],
      targets: ['testCheckout.open.reminded'],
    },
  ]);

  const reminded = find(states, 'testCheckout.open.reminded');
  t.deepEqual(reminded.transitions, [
    { event: 'PAY', guard: 'paid && !large', actions: [], targets: ['testCheckout.closed'] },
    { event: null, delay: { label: 'computed', name: 'computed' }, actions: [], targets: ['testCheckout.open.waiting'] },
  ]);
  t.deepEqual(find(states, 'testCheckout.expired').entry, [{ type: 'CHECKOUT_EXPIRED', kind: 'emit' }]);
});

test('labels read the event, the guard in brackets, the delay, and the effects and emits but not context changes', (t) => {
  const states = chartStates(chartDefinition(checkout));
  const text = (lines: Array<{ text: string }>) => lines.map((line) => line.text);
  t.deepEqual(text(transitionLines(find(states, 'testCheckout.open').transitions[0]!)), ['after 1h']);
  t.deepEqual(text(transitionLines(find(states, 'testCheckout.open.waiting').transitions[0]!)), ['PAY', '[paid]', '/ emit announcePaid']);
  t.deepEqual(text(transitionLines(find(states, 'testCheckout.open.waiting').transitions[2]!)), ['after 1m 30s']);
  t.deepEqual(text(stateLines(find(states, 'testCheckout.open.waiting'))), ['NUDGE / notify(customer)']);
  t.deepEqual(text(stateLines(find(states, 'testCheckout.open'))), ['entry / notify(ops)']);
  t.deepEqual(text(stateLines(find(states, 'testCheckout.expired'))), ['entry / emit CHECKOUT_EXPIRED']);
});

test('the drawn chart shows every label, and nests each state inside its parent', async (t) => {
  const svg = await renderChart(chartDefinition(checkout));
  for (const text of [
    'after 1h',
    'after 1m 30s',
    'after computed',
    '[paid]',
    '[paid &amp;&amp; !large]',
    '/ emit announcePaid',
    'entry / emit CHECKOUT_EXPIRED',
    'entry / notify(ops)',
  ]) {
    t.true(svg.includes(`>${text}<`), text);
  }
  const boxes = new Map(
    [...svg.matchAll(/<g class="state state-(\w+)[^"]*" data-state-id="([^"]+)"><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/g)].map(
      (match) => [match[2]!, { type: match[1]!, x: Number(match[3]), y: Number(match[4]), width: Number(match[5]), height: Number(match[6]) }],
    ),
  );
  t.deepEqual(
    [...boxes.keys()],
    ['testCheckout', 'testCheckout.open', 'testCheckout.open.waiting', 'testCheckout.open.reminded', 'testCheckout.expired', 'testCheckout.closed'],
  );
  t.is(boxes.get('testCheckout.expired')!.type, 'final');
  const inside = (inner: string, outer: string) => {
    const [a, b] = [boxes.get(inner)!, boxes.get(outer)!];
    return a.x > b.x && a.y > b.y && a.x + a.width < b.x + b.width && a.y + a.height < b.y + b.height;
  };
  t.true(inside('testCheckout.open.waiting', 'testCheckout.open'));
  t.true(inside('testCheckout.open.reminded', 'testCheckout.open'));
  t.false(inside('testCheckout.expired', 'testCheckout.open'));
  t.true(inside('testCheckout.open', 'testCheckout'));
  // An initial marker in the machine and one in `open`.
  t.is(svg.match(/<circle class="initial"/g)?.length, 2);
});
