/**
 * The maker referral model's inputs: one wallet's referral record, asked for claim numbers
 * and redeeming a code (once: the kind refuses a second redemption).
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { makerReferralKind } from '../../../actors/makers/index.js';
import type { MakerReferralContext, MakerReferralEvent } from '../../../machines/referral/index.js';
import type { Variant } from '../../support/model-paths.js';

export const MAKER_REFERRAL_KIND = makerReferralKind;

const WALLET = '0x14dc79964da2c08b23698b3d3cc7ca32193d9955';

export const MAKER_REFERRAL_VARIANTS: Variant[] = [{ name: 'a wallet', id: WALLET, create: { type: 'OPEN', at: '2026-11-23T12:00:00.000Z' } }];

const SAMPLES: MakerReferralEvent[] = [
  { type: 'NEXT_CLAIM', at: '2026-11-23T12:10:00.000Z' },
  { type: 'REDEEM', referrer: '0x23618e81e3f5cdf7f54c3d65f7fbc0abf5b21e8f', code: 'ALICE', at: '2026-11-23T12:20:00.000Z' },
];

export const makerReferralEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => SAMPLES;

/** The kind's refusal reads whether a code was redeemed; the claim count only grows. */
export const makerReferralAbstraction = (snapshot: AnyMachineSnapshot): unknown => ({
  value: snapshot.value,
  redeemed: (snapshot.context as MakerReferralContext).referredBy !== null,
});
