/** A machine of the tests' own that records every chain fact it is given, to prove delivery to actors. */
import { assign, setup } from 'xstate';
import { defineKind } from '../../actors/index.js';
import type { ChainFactMessage } from '../../actors/chain/chain-facts.js';

interface WatcherContext {
  /** `<fact id>` or `<fact id>:retracted`, in the order taken. */
  taken: string[];
  cases: string[];
}

const watcherMachine = setup({
  types: { context: {} as WatcherContext, events: {} as { type: 'OPEN' } | ChainFactMessage },
}).createMachine({
  id: 'watcher',
  context: { taken: [], cases: [] },
  initial: 'WATCHING',
  states: {
    WATCHING: {
      on: {
        CHAIN_FACT: {
          actions: assign(({ context, event }) => {
            const fact = event.fact as { id: string; retracted?: boolean; event?: Record<string, unknown> };
            const [kind] = Object.keys(fact).filter(
              (key) => key.startsWith('usdc') || key.startsWith('deposit') || key.startsWith('funds') || key.startsWith('intent'),
            );
            return { taken: [...context.taken, fact.retracted ? `${fact.id}:retracted` : fact.id], cases: [...context.cases, kind ?? 'unknown'] };
          }),
        },
      },
    },
  },
});

export const watcherKind = defineKind({
  name: 'watcher',
  machine: watcherMachine,
  machineVersion: 1,
  createdBy: ['OPEN'],
  input: () => ({}),
  view: (snapshot) => ({ ...(snapshot.context as WatcherContext) }),
});

export interface WatcherView {
  taken: string[];
  cases: string[];
}
