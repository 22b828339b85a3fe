/**
 * What the customer's checkout reads (docs/payout-checkout.md, "The checkout state"): the
 * payout as the merchant sees it, what the customer may do next, the methods the payout
 * offers, and document 2's checkout fields. Built through this schema, so the customer's
 * e-mail and wallet never leave except masked.
 */
import { z } from 'zod';
import type { PayoutTimelineEntry } from '../../machines/payout/payout-types.js';
import { PAYOUT_CRYPTO_RAILS, PAYOUT_FIAT_RAILS } from '../../machines/payout/payout-rails.js';
import { payoutView } from '../payouts/payout-resources.js';
import { isoTime } from '../schemas/common.js';
import type { CheckoutPayout } from './cashout-access.js';

export const CASHOUT_ACTIONS = ['SIGN_IN', 'SAVE_METHOD', 'SKIP_CONNECT', 'CONFIRM', 'RELIST', 'WITHDRAW', 'SEND_TO_ADDRESS'] as const;
export type CashoutAction = (typeof CASHOUT_ACTIONS)[number];
export const cashoutAction = z.enum(CASHOUT_ACTIONS).meta({ id: 'CashoutAction' });

const timelineEntry = z
  .strictObject({
    type: z.string().meta({ description: 'PayoutTimelineEventType' }),
    text: z.string().meta({ description: 'What happened, in words for the customer' }),
    txHash: z.string().nullable().meta({ description: 'The transaction it is about, if any' }),
    txChainId: z.number().int().nullable().meta({ description: 'The chain of txHash' }),
    occurredAt: isoTime,
  })
  .meta({ id: 'PayoutTimelineEntry' });

export const cashoutState = z
  .strictObject({
    payout: payoutView.meta({ description: 'The payout, as its merchant reads it (PayoutView)' }),
    merchant: z
      .strictObject({ name: z.string().nullable().meta({ description: 'The merchant’s name, as its profile says' }) })
      .meta({ description: 'Who is paying the customer out' }),
    sentTo: z.string().meta({ description: 'The payout’s e-mail, masked (`a••@example.com`): where sign-in codes go' }),
    actions: z.array(cashoutAction).meta({ description: 'What the customer may do now, in the order the page offers them' }),
    rails: z
      .array(
        z.strictObject({
          rail: z.enum([...PAYOUT_FIAT_RAILS, ...PAYOUT_CRYPTO_RAILS]).meta({ description: 'PayoutRail' }),
          kind: z.enum(['FIAT', 'CRYPTO']).meta({ description: 'FIAT: a buyer pays the customer on the rail; CRYPTO: sent to an address on the network' }),
        }),
      )
      .meta({ description: 'The methods this payout offers (its rails, less any an operator removed)' }),
    timeline: z.array(timelineEntry).meta({ description: 'What happened to the payout, oldest first' }),
  })
  .meta({ id: 'CashoutState' });

export type CashoutState = z.infer<typeof cashoutState>;

/** What the customer may do in each status; a funded payout is the first the customer acts on. */
function actionsOf(payout: CheckoutPayout): CashoutAction[] {
  switch (payout.status) {
    case 'FUNDED':
      return ['SIGN_IN', 'SAVE_METHOD'];
    case 'READY':
      return ['SIGN_IN', 'SAVE_METHOD', 'CONFIRM'];
    default:
      return [];
  }
}

export function cashoutStateOf(
  payout: CheckoutPayout,
  extra: { merchantName: string | null; sentTo: string; rails: readonly string[]; timeline: readonly PayoutTimelineEntry[] },
): CashoutState {
  return {
    payout: payout.payout,
    merchant: { name: extra.merchantName },
    sentTo: extra.sentTo,
    actions: actionsOf(payout),
    rails: extra.rails.map((rail) => ({
      rail: rail as CashoutState['rails'][number]['rail'],
      kind: (PAYOUT_FIAT_RAILS as readonly string[]).includes(rail) ? ('FIAT' as const) : ('CRYPTO' as const),
    })),
    timeline: [...extra.timeline],
  };
}
