/**
 * The `maker-session` actor kind: one per sign-in, its id the nonce it consumed. The view
 * is what the bearer guard reads on every request, looked up by the token's hash.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { makerSessionMachine, type MakerSessionContext } from '../../machines/maker-session/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export interface MakerSessionView {
  address: string;
  chainId: number;
  tokenHash: string;
  signedIn: boolean;
  signedInAt: string;
  expiresAt: string;
  signedOutAt: string | null;
}

export const MAKER_SESSION_KIND = 'maker-session';

export const makerSessionKind = defineKind({
  name: MAKER_SESSION_KIND,
  machine: makerSessionMachine,
  machineVersion: 1,
  createdBy: ['SIGN_IN'],
  view: (snapshot: AnyMachineSnapshot): MakerSessionView & Record<string, unknown> => {
    const context = snapshot.context as MakerSessionContext;
    return {
      address: context.address,
      chainId: context.chainId,
      tokenHash: context.tokenHash,
      signedIn: snapshot.value === 'SIGNED_IN',
      signedInAt: context.signedInAt,
      expiresAt: context.expiresAt,
      signedOutAt: context.signedOutAt,
    };
  },
  // A nonce is good for one sign-in: the session it made exists, so another SIGN_IN with it is a replay.
  check: (_snapshot, event) => (event.type === 'SIGN_IN' ? { code: 'SIWE_NONCE_USED', message: 'This nonce has signed in already; ask for a new one' } : null),
  viewIndexes: [{ key: { 'view.tokenHash': 1 }, name: 'maker_session_by_token' }],
});
