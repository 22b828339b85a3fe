/** actors/makers: the kinds of makers' sign-in and referrals as one set to register (docs/maker-auth.md, docs/maker-referrals.md); the kinds themselves are in actors/kinds/. */
import type { ActorKind } from '../runtime/actor-kind.js';
import { makerReferralKind } from '../kinds/maker-referral-kind.js';
import { makerSessionKind } from '../kinds/maker-session-kind.js';
import { referralCodeKind } from '../kinds/referral-code-kind.js';

export * from '../kinds/maker-session-kind.js';
export * from '../kinds/referral-code-kind.js';
export * from '../kinds/maker-referral-kind.js';

export const makerWalletKinds: ActorKind[] = [makerSessionKind, referralCodeKind, makerReferralKind];
