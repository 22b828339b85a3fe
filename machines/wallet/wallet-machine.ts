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

/**
 * The next nonce after a RECONCILE: nonces the chain never took and no transaction under way
 * holds are given out again, since a transaction signed above them would wait forever (a
 * chain that lost its last blocks, or a key's pool emptied). Nonces held by transactions
 * under way stay theirs. Only when nothing was assigned since the look (`seenNextNonce`):
 * otherwise a nonce just given out could be given twice.
 */
export function reconciledNextNonce(nextNonce: bigint, chainNonce: bigint, heldNonces: readonly bigint[], seenNextNonce: bigint): bigint {
  if (seenNextNonce !== nextNonce) return nonceToAssign(nextNonce, chainNonce);
  const highestHeld = heldNonces
    .filter((nonce) => nonce >= chainNonce)
    .reduce<bigint | null>((top, nonce) => (top === null || nonce > top ? nonce : top), null);
  return highestHeld === null ? chainNonce : highestHeld + 1n;
}

/** Nonces below the highest held one that the chain has not taken and nothing under way holds: spent by the relayer on nothing, so the held ones can mine. */
export function nonceHoles(chainNonce: bigint, heldNonces: readonly bigint[]): bigint[] {
  const held = new Set(heldNonces.filter((nonce) => nonce >= chainNonce));
  if (held.size === 0) return [];
  const highest = [...held].reduce((top, nonce) => (nonce > top ? nonce : top));
  const holes: bigint[] = [];
  for (let nonce = chainNonce; nonce < highest; nonce++) if (!held.has(nonce)) holes.push(nonce);
  return holes;
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
    reconcile: assign(({ context, event }) => {
      if (event.type !== 'RECONCILE') return {};
      return { nextNonce: reconciledNextNonce(context.nextNonce, event.chainNonce, event.heldNonces, event.seenNextNonce), updatedAt: event.at };
    }),
  },
}).createMachine({
  id: 'wallet',
  context: ({ input }) => ({ ...input, assigned: 0, updatedAt: input.at }),
  initial: 'OPEN',
  states: {
    OPEN: { on: { ASSIGN_NONCE: { actions: 'assignNonce' }, RECONCILE: { actions: 'reconcile' } } },
  },
});
