/** actors/makers: the kinds of makers' sign-in and referrals as one set to register (docs/maker-auth.md, docs/maker-referrals.md); the kinds themselves are in actors/kinds/. */
import type { ActorKind } from '../runtime/actor-kind.js';
import { makerReferralKind } from '../kinds/maker-referral-kind.js';
import { makerSessionKind } from '../kinds/maker-session-kind.js';
import { referralCodeKind } from '../kinds/referral-code-kind.js';

export { MAKER_SESSION_KIND, makerSessionKind } from '../kinds/maker-session-kind.js';
export type { MakerSessionView } from '../kinds/maker-session-kind.js';
export { REFERRAL_CODE_KIND, referralCodeKind } from '../kinds/referral-code-kind.js';
export type { ReferralCodeView } from '../kinds/referral-code-kind.js';
export { MAKER_REFERRAL_KIND, makerReferralKind } from '../kinds/maker-referral-kind.js';
export type { MakerReferralView } from '../kinds/maker-referral-kind.js';

export const makerWalletKinds: ActorKind[] = [makerSessionKind, referralCodeKind, makerReferralKind];
