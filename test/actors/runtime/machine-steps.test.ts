import test from 'ava';
import { assign, setup } from 'xstate';
import { defineKind } from '../../../actors/index.js';
import { startTestSystem } from '../../support/test-node.js';

test('a turn runs the machine once: its context factory never runs without input, as a throwaway actor made it', async (t) => {
  let withoutInput = 0;
  let withInput = 0;
  const machine = setup({ types: { context: {} as { n: number }, events: {} as { type: 'START' } | { type: 'BUMP' } } }).createMachine({
    id: 'probe',
    context: ({ input }) => {
      if (input === undefined) withoutInput++;
      else withInput++;
      return { n: 0 };
    },
    on: { BUMP: { actions: assign({ n: ({ context }) => context.n + 1 }) } },
  });
  const kind = defineKind({
    name: 'probe',
    machine,
    machineVersion: 1,
    createdBy: ['START'],
    view: (snapshot) => ({ n: (snapshot.context as { n: number }).n }),
  });
  const { system } = await startTestSystem({ kinds: [kind] });
  await system.askAt({ kind: 'probe', id: 'p' }, { type: 'START' });
  const baseline = withoutInput;
  for (let i = 0; i < 3; i++) await system.askAt({ kind: 'probe', id: 'p' }, { type: 'BUMP' });
  t.is(withInput, 1, 'the creation computes the context once');
  t.is(withoutInput - baseline, 0, 'no turn builds a throwaway actor');
});
