/** An owner of the tests' own: records every TRANSACTION_OUTCOME it is told, so a test can count them. */
import { assign, setup } from 'xstate';
import { defineKind } from '../../actors/index.js';
import type { TransactionOutcomeEvent } from '../../machines/transaction/index.js';

interface OwnerContext {
  outcomes: Array<{ transactionId: string; status: string; hash: string | null; reason: string | null }>;
}

const ownerMachine = setup({
  types: { context: {} as OwnerContext, events: {} as TransactionOutcomeEvent | { type: 'OPEN' } },
}).createMachine({
  id: 'owner',
  context: { outcomes: [] },
  initial: 'LISTENING',
  states: {
    LISTENING: {
      on: {
        TRANSACTION_OUTCOME: {
          actions: assign(({ context, event }) => ({
            outcomes: [
              ...context.outcomes,
              { transactionId: event.transactionId, status: event.outcome.status, hash: event.outcome.hash, reason: event.outcome.reason },
            ],
          })),
        },
      },
    },
  },
});

export const outcomeOwnerKind = defineKind({
  name: 'owner',
  machine: ownerMachine,
  machineVersion: 1,
  createdBy: ['OPEN'],
  input: () => ({}),
  view: (snapshot) => ({ ...(snapshot.context as OwnerContext) }),
});

export type OwnerView = OwnerContext;
