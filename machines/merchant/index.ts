/** machines/merchant: a merchant account (one environment), its settings and API key hash, and on the LIVE account the business's dashboard users. */
export { merchantMachine } from './merchant-machine.js';
export type {
  Environment,
  FeePayer,
  MerchantContext,
  MerchantEvent,
  MerchantInput,
  MerchantSettings,
  MerchantSettingsChanges,
  MerchantTier,
} from './merchant-machine.js';
export { ACCENT_COLOR, brandingOf, THEME_MODES } from './branding.js';
export type { Branding, CheckoutTheme, CheckoutThemeMode } from './branding.js';
export { applyTeamEvent, MEMBER_ROLES, normalEmail, teamRefusal } from './team.js';
export type { MemberPasskey, MemberRole, MemberStatus, MerchantUser, TeamEvent, TeamRefusal } from './team.js';
export { MAX_REFERRAL_RECIPIENTS, referralSplitProblem } from './referral-split.js';
export type { ReferralSplitConfig, ReferralSplitRecipient } from './referral-split.js';
