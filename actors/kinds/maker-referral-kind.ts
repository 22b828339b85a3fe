/**
 * The `maker-referral` actor kind: one per wallet (lower case). Its view answers who
 * referred the maker, and, counted over every maker's view, how many it referred.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { makerReferralMachine, type MakerReferralContext, type Redemption } from '../../machines/referral/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export interface MakerReferralView {
  claims: number;
  referredBy: Redemption | null;
  /** Who referred the maker, lower case, or null: what redemptions are counted by. */
  referrer: string | null;
}

export const MAKER_REFERRAL_KIND = 'maker-referral';

export const makerReferralKind = defineKind({
  name: MAKER_REFERRAL_KIND,
  machine: makerReferralMachine,
  machineVersion: 1,
  createdBy: ['OPEN'],
  view: (snapshot: AnyMachineSnapshot): MakerReferralView & Record<string, unknown> => {
    const context = snapshot.context as MakerReferralContext;
    return { claims: context.claims, referredBy: context.referredBy, referrer: context.referredBy?.referrer ?? null };
  },
  check: (snapshot, event) =>
    event.type === 'REDEEM' && (snapshot.context as MakerReferralContext).referredBy !== null
      ? { code: 'REFERRAL_ALREADY_REDEEMED', message: 'This wallet has redeemed a referral code already; a wallet redeems one, once' }
      : null,
  viewIndexes: [{ key: { 'view.referrer': 1 }, name: 'maker_referral_by_referrer' }],
});
