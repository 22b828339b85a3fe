/** A lean actor for benchmarks: a count and a small reply, so the figures measure the runtime, not a growing document. */
import { assign, setup } from 'xstate';
import { defineKind } from '../../actors/index.js';

const tallyMachine = setup({
  types: { context: {} as { count: bigint }, events: {} as { type: 'OPEN' } | { type: 'ADD'; n: number } },
}).createMachine({
  id: 'tally',
  context: { count: 0n },
  on: { ADD: { actions: assign({ count: ({ context, event }) => context.count + BigInt(event.n) }) } },
});

export const tallyKind = defineKind({
  name: 'tally',
  machine: tallyMachine,
  machineVersion: 1,
  createdBy: ['OPEN'],
  view: (snapshot) => ({ count: String((snapshot.context as { count: bigint }).count) }),
});
