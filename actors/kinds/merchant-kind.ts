/**
 * The `merchant` actor kind: one per account (live or sandbox). Its view is the
 * MerchantProfile of document 1 plus what the gateway looks accounts up by: the
 * API key hash (unique) and the settings orders and payouts are created with. A command
 * answers the profile as operators see it, the service's payout fee included.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { formatUsdc } from '../../machines/money.js';
import {
  brandingOf,
  merchantMachine,
  teamRefusal,
  type MerchantContext,
  type MerchantEvent,
  type TeamEvent,
  type TeamRefusal,
} from '../../machines/merchant/index.js';
import { fundingToken } from '../../machines/payout/funding-catalog.js';
import type { PayoutSettings } from '../../machines/payout/payout-settings.js';
import { defineKind } from '../runtime/actor-kind.js';

/** The payout settings as the admin API shows them: the step in decimal USDC, each funding token as its catalog entry. */
export function shownPayoutSettings(payouts: PayoutSettings) {
  return {
    methods: payouts.methods,
    merchantFeeBps: payouts.merchantFeeBps,
    merchantWalletAddress: payouts.merchantWalletAddress,
    serviceFeeBps: payouts.serviceFeeBps,
    fundingTokens:
      payouts.fundingTokens?.map((key) => {
        const [chainId, address] = key.split(':') as [string, string];
        return { chainId: Number(chainId), tokenAddress: fundingToken(Number(chainId), address)?.address ?? address };
      }) ?? null,
    payoutStep: formatUsdc(payouts.payoutStepUsdc),
  };
}

/** The profile as the account's own key reads it: payout settings without the service's fee, which is the operators' business. */
export function merchantProfile(context: MerchantContext) {
  const { settings } = context;
  const payouts = settings.payouts ? shownPayoutSettings(settings.payouts) : null;
  return {
    id: context.id,
    name: context.name,
    logoUrl: null,
    industryType: null,
    industryOtherText: null,
    integrationPath: null,
    onboardingCompletedAt: null,
    onboardingSkippedAt: null,
    // Keys are stored only as hashes, so the profile can show which key is in use, never the key.
    apiKey: context.apiKeyHint,
    apiKeyIpAllowlist: settings.apiKeyIpAllowlist,
    environment: context.environment,
    sandboxMerchantId: context.environment === 'LIVE' ? context.twinId : null,
    inPersonCheckoutEnabled: settings.inPersonCheckoutEnabled,
    evmWalletAddress: settings.evmWalletAddress,
    solanaWalletAddress: settings.solanaWalletAddress ?? null,
    v1EvmWalletAddress: null,
    v1SolanaWalletAddress: null,
    tier: settings.tier,
    masterMerchantId: null,
    createdAt: context.createdAt,
    updatedAt: context.updatedAt,
    merchantConfig: {
      defaultPaymentCurrency: settings.defaultPaymentCurrency,
      enabledRails: settings.enabledRails,
      dynamicOrdersEnabled: settings.dynamicOrdersEnabled,
      completionDustThresholdUsdc: formatUsdc(settings.completionDustThresholdUsdc),
      feePayer: settings.feePayer,
      remediationActionsEnabled: settings.remediationActionsEnabled ?? true,
      remediationExtensionsEnabled: settings.remediationExtensionsEnabled ?? true,
      referralSplitConfig: settings.referralSplitConfig ?? null,
      cryptoReferralSplitConfig: settings.cryptoReferralSplitConfig ?? null,
    },
    // A member's passkeys are the sign-in's business, not the profile's: the view keeps them apart.
    merchantUsers: (context.users ?? []).map(({ passkeys: _passkeys, ...user }) => user),
    payouts: payouts && {
      methods: payouts.methods,
      merchantFeeBps: payouts.merchantFeeBps,
      merchantWalletAddress: payouts.merchantWalletAddress,
      fundingTokens: payouts.fundingTokens,
      payoutStep: payouts.payoutStep,
    },
  };
}

/** The profile as the admin API answers it: the payout settings whole. */
export function adminMerchantProfile(context: MerchantContext) {
  const { payouts } = context.settings;
  return { ...merchantProfile(context), payouts: payouts ? shownPayoutSettings(payouts) : null };
}

export const merchantKind = defineKind({
  name: 'merchant',
  machine: merchantMachine,
  machineVersion: 1,
  createdBy: ['CREATE'],
  view: (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as MerchantContext;
    const payouts = context.settings.payouts ?? null;
    return {
      profile: merchantProfile(context),
      environment: context.environment,
      twinId: context.twinId,
      apiKeyHash: context.apiKeyHash,
      apiKeyLastUsedAt: context.apiKeyLastUsedAt ?? null,
      name: context.name,
      // The team's addresses, indexed: a sign-in finds the businesses an address belongs to.
      memberEmails: (context.users ?? []).map((user) => user.email),
      // Every member's passkeys, indexed by credential: a passkey sign-in names only its credential.
      passkeys: (context.users ?? []).flatMap((user) => (user.passkeys ?? []).map((passkey) => ({ ...passkey, userId: user.userId }))),
      // What payouts are created with; a view holds no bigint, so the step is its base units in decimal.
      payoutSettings: payouts ? { ...payouts, payoutStepUsdc: payouts.payoutStepUsdc.toString() } : null,
      // How the hosted checkout looks (docs/branding.md): the hosted order read shows it.
      branding: brandingOf(context.settings),
    };
  },
  reply: (snapshot) => adminMerchantProfile(snapshot.context as MerchantContext),
  check: (snapshot, event) => teamCheck(snapshot.context as MerchantContext, event as MerchantEvent),
  viewIndexes: [
    { key: { 'view.apiKeyHash': 1 }, unique: true, name: 'merchant_by_api_key' },
    { key: { 'view.memberEmails': 1 }, name: 'merchant_by_member_email' },
    { key: { 'view.passkeys.credentialId': 1 }, name: 'merchant_by_passkey' },
  ],
});

const TEAM_EVENTS = new Set<string>(['ADD_MEMBER', 'CHANGE_ROLE', 'REMOVE_MEMBER', 'MEMBER_SIGNED_IN', 'ADD_PASSKEY', 'USE_PASSKEY', 'REMOVE_PASSKEY']);

const TEAM_REFUSALS: Record<TeamRefusal, string> = {
  MEMBER_EXISTS: 'that address is already a member of the team',
  MEMBER_NOT_FOUND: 'no member of the team has that userId',
  LAST_OWNER: 'the team’s last Owner can be neither removed nor given another role',
  TEAM_ON_LIVE_ACCOUNT: 'the team is kept on the live account; this is the sandbox twin',
  PASSKEY_EXISTS: 'that passkey is registered already',
  PASSKEY_NOT_FOUND: 'the member has no passkey with that id',
};

/** The team's rules (machines/merchant/team.ts), refused with their own codes rather than as an event not taken. */
function teamCheck(context: MerchantContext, event: MerchantEvent) {
  if (!TEAM_EVENTS.has(event.type)) return null;
  const refusal = context.environment === 'LIVE' ? teamRefusal(context.users ?? [], event as TeamEvent) : 'TEAM_ON_LIVE_ACCOUNT';
  return refusal && { code: refusal, message: TEAM_REFUSALS[refusal] };
}
