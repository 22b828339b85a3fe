/**
 * The wallet: it hands out its key's nonces one at a time, in order, and never the
 * same one twice. Being an actor, its turns run one after another and each is one
 * conditional write, so nonces stay consecutive under any number of concurrent
 * senders and across nodes. A retried request for a nonce (the same message id)
 * gets the nonce it got before, from the runtime's memory of applied messages.
 */
import { assign, setup } from 'xstate';
import type { WalletContext, WalletEvent, WalletInput } from './wallet-types.js';

/** The nonce an ASSIGN_NONCE turn gives: the wallet's next, unless the chain has moved past it. */
export function nonceToAssign(nextNonce: bigint, chainNonce: bigint): bigint {
  return chainNonce > nextNonce ? chainNonce : nextNonce;
}

export const walletMachine = setup({
  types: {
    input: {} as WalletInput,
    context: {} as WalletContext,
    events: {} as WalletEvent,
  },
  actions: {
    assignNonce: assign(({ context, event }) => {
      if (event.type !== 'ASSIGN_NONCE') return {};
      return { nextNonce: nonceToAssign(context.nextNonce, event.chainNonce) + 1n, assigned: context.assigned + 1, updatedAt: event.at };
    }),
  },
}).createMachine({
  id: 'wallet',
  context: ({ input }) => ({ ...input, assigned: 0, updatedAt: input.at }),
  initial: 'OPEN',
  states: {
    OPEN: { on: { ASSIGN_NONCE: { actions: 'assignNonce' } } },
  },
});
