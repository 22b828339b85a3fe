/** actors/makers: the actor kinds of makers' sign-in and referrals (docs/maker-auth.md, docs/maker-referrals.md). */
import type { ActorKind } from '../runtime/actor-kind.js';
import { makerReferralKind } from './maker-referral-kind.js';
import { makerSessionKind } from './maker-session-kind.js';
import { referralCodeKind } from './referral-code-kind.js';

export * from './maker-session-kind.js';
export * from './referral-code-kind.js';
export * from './maker-referral-kind.js';

export const makerWalletKinds: ActorKind[] = [makerSessionKind, referralCodeKind, makerReferralKind];
