/**
 * A maker's session: one sign-in with an Ethereum wallet (EIP-4361). Its actor id is the
 * nonce the signed message carried, and SIGN_IN is what creates it, so a nonce signs in
 * at most once: a second SIGN_IN finds the actor there and is refused, however many
 * arrive at once (one turn at a time, one conditional write each). It keeps the hash of
 * the bearer token it answered, never the token, and ends when the maker signs out or
 * its expiry passes (checked by whoever reads it against the clock, so no timer is needed).
 */
import { assign, setup } from 'xstate';

export interface MakerSessionInput {
  /** The nonce the sign-in consumed. */
  id: string;
  /** The wallet, EIP-55 checksummed. */
  address: string;
  /** The EIP-155 chain id the signed message named. */
  chainId: number;
  /** SHA-256 hex of the bearer token. */
  tokenHash: string;
  at: string;
  expiresAt: string;
}

export interface MakerSessionContext extends MakerSessionInput {
  signedInAt: string;
  signedOutAt: string | null;
}

export type MakerSessionEvent = ({ type: 'SIGN_IN' } & Omit<MakerSessionInput, 'id'>) | { type: 'SIGN_OUT'; at: string };

export const makerSessionMachine = setup({
  types: { context: {} as MakerSessionContext, events: {} as MakerSessionEvent, input: {} as MakerSessionInput },
}).createMachine({
  id: 'maker-session',
  context: ({ input }) => ({ ...input, signedInAt: input.at, signedOutAt: null }),
  initial: 'SIGNED_IN',
  states: {
    SIGNED_IN: {
      on: { SIGN_OUT: { target: 'SIGNED_OUT', actions: assign(({ event }) => ({ signedOutAt: event.at })) } },
    },
    // Signing out twice (two logouts racing) is the same outcome as once. An action, so that xstate's can() (and the runtime) takes it.
    SIGNED_OUT: { on: { SIGN_OUT: { actions: assign(() => ({})) } } },
  },
});
