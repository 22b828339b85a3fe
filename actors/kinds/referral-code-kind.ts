/**
 * The `referral-code` actor kind: one per code, its id the code in lower case, so a code
 * has one holder whatever its letter case and however many makers claim it at once.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { referralCodeMachine, type ReferralCodeContext } from '../../machines/referral/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export interface ReferralCodeView {
  code: string;
  owner: string;
  held: boolean;
  claim: number;
  heldSince: string;
}

export const REFERRAL_CODE_KIND = 'referral-code';

export const referralCodeKind = defineKind({
  name: REFERRAL_CODE_KIND,
  machine: referralCodeMachine,
  machineVersion: 1,
  createdBy: ['OPEN'],
  view: (snapshot: AnyMachineSnapshot): ReferralCodeView & Record<string, unknown> => {
    const context = snapshot.context as ReferralCodeContext;
    return { code: context.code, owner: context.owner, held: snapshot.value === 'HELD', claim: context.claim, heldSince: context.heldSince };
  },
  check: (snapshot, event) => {
    const context = snapshot.context as ReferralCodeContext;
    const claimer = event.type === 'CLAIM' || event.type === 'OPEN' ? event.owner : null;
    if (claimer !== null && snapshot.value === 'HELD' && context.owner !== claimer) {
      return { code: 'REFERRAL_CODE_TAKEN', message: 'Another maker holds this code (letter case aside)' };
    }
    return null;
  },
  viewIndexes: [{ key: { 'view.owner': 1, 'view.held': 1 }, name: 'referral_code_by_owner' }],
});
