/**
 * One referral code, whichever maker holds it. Its actor id is the code's key (lower
 * case), so two makers claiming one code at once are two turns of one actor: the first
 * holds it and the second is refused. A maker changing codes claims the new one with a
 * claim number its own referral record hands out in order, then releases the codes it
 * holds under lower numbers; a release names the number it is below, so a slow release
 * can never free a code its holder claimed again since.
 */
import { assign, setup } from 'xstate';

export type ReferralClaim = {
  /** The spelling the holder chose. */
  code: string;
  /** The holder's wallet, lower case. */
  owner: string;
  /** The holder's claim number (maker-referral-machine.ts): higher is more recent. */
  claim: number;
  at: string;
};

export interface ReferralCodeContext extends ReferralClaim {
  /** The key: the code in lower case. */
  id: string;
  heldSince: string;
}

export type ReferralCodeEvent =
  | ({ type: 'OPEN' } & ReferralClaim)
  | ({ type: 'CLAIM' } & ReferralClaim)
  | { type: 'RELEASE'; owner: string; below: number; at: string };

export const referralCodeMachine = setup({
  types: { context: {} as ReferralCodeContext, events: {} as ReferralCodeEvent, input: {} as ReferralClaim & { id: string } },
  guards: {
    /** The holder releasing a claim older than its newest; anything else leaves the code as it is. */
    releasable: ({ context, event }) => event.type === 'RELEASE' && event.owner === context.owner && context.claim < event.below,
  },
  actions: {
    /**
     * Takes a release that does not apply and changes nothing. A transition with neither
     * target nor action is not taken as far as xstate's can() goes, and the runtime refuses what is not taken.
     */
    acknowledge: assign(() => ({})),
    take: assign(({ event }) =>
      event.type === 'CLAIM' ? { code: event.code, owner: event.owner, claim: event.claim, at: event.at, heldSince: event.at } : {},
    ),
    // The holder claiming its own code again (another spelling, or a later change back to it).
    renew: assign(({ context, event }) => (event.type === 'CLAIM' ? { code: event.code, claim: Math.max(context.claim, event.claim), at: event.at } : {})),
  },
}).createMachine({
  id: 'referral-code',
  context: ({ input }) => ({ ...input, heldSince: input.at }),
  initial: 'HELD',
  states: {
    // Another maker's CLAIM is refused before the machine sees it (the kind's check).
    HELD: {
      on: {
        CLAIM: { actions: 'renew' },
        RELEASE: [{ guard: 'releasable', target: 'RELEASED', actions: assign(({ event }) => ({ at: event.at })) }, { actions: 'acknowledge' }],
      },
    },
    RELEASED: {
      on: {
        CLAIM: { target: 'HELD', actions: 'take' },
        RELEASE: { actions: 'acknowledge' },
      },
    },
  },
});
