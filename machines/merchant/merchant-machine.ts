/**
 * A merchant account: one environment (LIVE or SANDBOX) of a business, its settings
 * and the hash of its API key. Live and sandbox are separate accounts, each its own
 * actor, that know each other only by id (`twinId`). The machine has one state; it is
 * an actor so that every change to an account goes through one conditional write,
 * like everything else the gateway changes.
 */
import type { ReferralSplitConfig } from './referral-split.js';
import { assign, setup } from 'xstate';
import { defaultPayoutSettings, type PayoutSettings } from '../payout/payout-settings.js';
import type { CheckoutTheme } from './branding.js';
import { applyTeamEvent, teamRefusal, type MerchantUser, type TeamEvent } from './team.js';

export type Environment = 'LIVE' | 'SANDBOX';
export type MerchantTier = 'BASE' | 'PRO' | 'CONCIERGE';
export type FeePayer = 'MERCHANT' | 'PAYEE' | 'SPLIT';

/** The settings an administrator may change (document 1's merchant configuration). */
export interface MerchantSettings {
  tier: MerchantTier | null;
  evmWalletAddress: string | null;
  /** Accounts created before this setting existed have no such key; read it as null. */
  solanaWalletAddress: string | null;
  defaultPaymentCurrency: string | null;
  enabledRails: string[];
  dynamicOrdersEnabled: boolean;
  completionDustThresholdUsdc: bigint;
  feePayer: FeePayer;
  apiKeyIpAllowlist: string[];
  inPersonCheckoutEnabled: boolean;
  /**
   * Document 1's remediation actions (recreate, extend, fulfil from a receipt) for this account;
   * extensions have their own switch. Accounts created before these settings existed have no such
   * keys; read them as on.
   */
  remediationActionsEnabled?: boolean;
  remediationExtensionsEnabled?: boolean;
  /** The hosted checkout's look (branding.ts); accounts created before these settings existed have no such keys: Peer's branding, no theme. */
  disableBranding?: boolean;
  checkoutTheme?: CheckoutTheme | null;
  /**
   * Document 2's payout settings; null while the account's payout setup is unfinished (a payout
   * create answers 409 MERCHANT_CONFIG_MISSING). Accounts created before this setting existed have
   * no such key; read it as null.
   */
  payouts: PayoutSettings | null;
  /**
   * How the platform's fee is shared with the merchant's referral partners, on fiat rails and on
   * crypto rails (referral-split.ts). Accounts created before these settings existed have no such
   * keys; read them as null.
   */
  referralSplitConfig?: ReferralSplitConfig | null;
  cryptoReferralSplitConfig?: ReferralSplitConfig | null;
}

/**
 * A change of settings: each one sent replaces the stored one, except payouts, whose fields merge
 * over the stored payout settings (over the defaults while there are none); null clears them.
 */
export type MerchantSettingsChanges = Partial<Omit<MerchantSettings, 'payouts'>> & { payouts?: Partial<PayoutSettings> | null };

export interface MerchantInput {
  id: string;
  name: string;
  environment: Environment;
  twinId: string;
  settings: MerchantSettings;
  apiKeyHash: string;
  apiKeyHint: string;
  at: string;
}

export interface MerchantContext extends MerchantInput {
  createdAt: string;
  updatedAt: string;
  /** When the account's API key was last seen, to the hour (integration status); absent before the first use was noted. */
  apiKeyLastUsedAt?: string | null;
  /** The business's dashboard users, on its LIVE account only (team.ts); absent on accounts from before the dashboard: none. */
  users?: MerchantUser[];
}

export type MerchantEvent =
  | ({ type: 'CREATE' } & MerchantInput)
  | { type: 'UPDATE_SETTINGS'; changes: MerchantSettingsChanges; at: string }
  | { type: 'ROTATE_API_KEY'; apiKeyHash: string; apiKeyHint: string; at: string }
  | { type: 'NOTE_KEY_USED'; at: string }
  | TeamEvent;

export const merchantMachine = setup({
  types: { context: {} as MerchantContext, events: {} as MerchantEvent, input: {} as MerchantInput },
  guards: {
    teamAllows: ({ context, event }) => context.environment === 'LIVE' && teamRefusal(context.users ?? [], event as TeamEvent) === null,
  },
  actions: {
    changeTeam: assign(({ context, event }) => ({ users: applyTeamEvent(context.users ?? [], event as TeamEvent), updatedAt: (event as TeamEvent).at })),
  },
}).createMachine({
  id: 'merchant',
  context: ({ input }) => ({ ...input, createdAt: input.at, updatedAt: input.at }),
  initial: 'ACTIVE',
  states: {
    ACTIVE: {
      on: {
        UPDATE_SETTINGS: {
          actions: assign(({ context, event }) => {
            const { payouts, ...replaced } = event.changes;
            const settings = { ...context.settings, ...replaced };
            if (payouts !== undefined) settings.payouts = payouts && { ...(context.settings.payouts ?? defaultPayoutSettings()), ...payouts };
            return { settings, updatedAt: event.at };
          }),
        },
        ROTATE_API_KEY: {
          actions: assign(({ event }) => ({ apiKeyHash: event.apiKeyHash, apiKeyHint: event.apiKeyHint, updatedAt: event.at })),
        },
        // Not a change of the account: updatedAt stays.
        NOTE_KEY_USED: { actions: assign(({ event }) => ({ apiKeyLastUsedAt: event.at })) },
        ADD_MEMBER: { guard: 'teamAllows', actions: 'changeTeam' },
        CHANGE_ROLE: { guard: 'teamAllows', actions: 'changeTeam' },
        REMOVE_MEMBER: { guard: 'teamAllows', actions: 'changeTeam' },
        MEMBER_SIGNED_IN: { guard: 'teamAllows', actions: 'changeTeam' },
        ADD_PASSKEY: { guard: 'teamAllows', actions: 'changeTeam' },
        USE_PASSKEY: { guard: 'teamAllows', actions: 'changeTeam' },
        REMOVE_PASSKEY: { guard: 'teamAllows', actions: 'changeTeam' },
      },
    },
  },
});
