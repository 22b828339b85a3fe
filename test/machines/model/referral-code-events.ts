/**
 * The referral code model's inputs: a code opened by one maker, claimed again by it and by
 * another maker (refused while it is held), and released by its holder below its claim
 * (it goes) or at its claim, or by someone else (it stays).
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { referralCodeKind } from '../../../actors/makers/index.js';
import type { ReferralCodeContext, ReferralCodeEvent } from '../../../machines/referral/index.js';
import { sample, type Variant } from '../../support/model-paths.js';

export const REFERRAL_CODE_KIND = referralCodeKind;

const ALICE = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';
const BOB = '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f';
const AT = '2026-11-23T12:30:00.000Z';

export const REFERRAL_CODE_VARIANTS: Variant[] = [
  { name: 'alice holds it', id: 'alice', create: { type: 'OPEN', code: 'Alice', owner: ALICE, claim: 1, at: '2026-11-23T12:00:00.000Z' } },
];

const SAMPLES: ReferralCodeEvent[] = [
  sample('alice again', { type: 'CLAIM', code: 'ALICE', owner: ALICE, claim: 2, at: AT }),
  sample('bob', { type: 'CLAIM', code: 'alice', owner: BOB, claim: 1, at: AT }),
  sample('alice, older claim', { type: 'RELEASE', owner: ALICE, below: 3, at: AT }),
  sample('alice, current claim', { type: 'RELEASE', owner: ALICE, below: 1, at: AT }),
  sample('bob', { type: 'RELEASE', owner: BOB, below: 9, at: AT }),
];

export const referralCodeEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => SAMPLES;

/** What the guard and the kind's refusal read: the holder and its claim. */
export const referralCodeAbstraction = (snapshot: AnyMachineSnapshot): unknown => {
  const context = snapshot.context as ReferralCodeContext;
  return { value: snapshot.value, owner: context.owner, claim: context.claim };
};
