/** machines/referral: makers' referral codes (one actor per code) and each maker's referral record (one per wallet). */
export { REFERRAL_CODE_PATTERN, REFERRAL_CODE_RULE, referralCodeKey } from './referral-code.js';
export { referralCodeMachine } from './referral-code-machine.js';
export type { ReferralClaim, ReferralCodeContext, ReferralCodeEvent } from './referral-code-machine.js';
export { makerReferralMachine } from './maker-referral-machine.js';
export type { MakerReferralContext, MakerReferralEvent, MakerReferralInput, Redemption } from './maker-referral-machine.js';
