/**
 * A maker's referral record, one per wallet: the claim numbers its code changes are
 * ordered by (handed out one at a time, so a later change always outranks an earlier
 * one, whatever order their writes land in) and the code it redeemed, at most once.
 */
import { assign, setup } from 'xstate';

export type Redemption = {
  /** The wallet whose code was redeemed, lower case. */
  referrer: string;
  /** The code as it was redeemed. */
  code: string;
  at: string;
};

export interface MakerReferralInput {
  /** The wallet, lower case. */
  id: string;
  at: string;
}

export interface MakerReferralContext {
  id: string;
  createdAt: string;
  /** Claim numbers handed out so far: the last one given. */
  claims: number;
  referredBy: Redemption | null;
}

export type MakerReferralEvent = { type: 'OPEN'; at: string } | { type: 'NEXT_CLAIM'; at: string } | ({ type: 'REDEEM' } & Redemption);

export const makerReferralMachine = setup({
  types: { context: {} as MakerReferralContext, events: {} as MakerReferralEvent, input: {} as MakerReferralInput },
}).createMachine({
  id: 'maker-referral',
  context: ({ input }) => ({ id: input.id, createdAt: input.at, claims: 0, referredBy: null }),
  initial: 'ACTIVE',
  states: {
    // A second REDEEM is refused before the machine sees it (the kind's check).
    ACTIVE: {
      on: {
        NEXT_CLAIM: { actions: assign(({ context }) => ({ claims: context.claims + 1 })) },
        REDEEM: { actions: assign(({ event }) => ({ referredBy: { referrer: event.referrer, code: event.code, at: event.at } })) },
      },
    },
  },
});
