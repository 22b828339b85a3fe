/**
 * Request bodies of the admin API for merchants, the MerchantProfile an account's own key reads,
 * and the AdminMerchantProfile the admin API answers (the same with the service's payout fee).
 */
import { checkoutThemeInput, disableBranding } from './branding-schemas.js';
import { z } from 'zod';
import { ALL_RAILS } from '../../machines/rails.js';
import { solanaAddress } from '../schemas/addresses.js';
import { referralSplitConfig, referralSplitInput } from './referral-split-schema.js';
import { currencyCode, decimalString, environment, evmAddress, feePayer, merchantId, tier } from '../schemas/common.js';
import { merchantUsers } from '../dashboard/team-schemas.js';
import { adminPayoutSettings, merchantPayoutSettings, payoutSettingsChange } from './payout-settings-schemas.js';

export const merchantPath = z.strictObject({ merchantId });

export const createMerchantBody = z
  .strictObject({
    name: z.string().trim().min(1).max(120).meta({ description: 'The shop’s name, shown to customers' }),
    tier: tier.optional().meta({ description: 'The plan; none when absent, and a live order needs one' }),
    evmWalletAddress: evmAddress.optional().meta({ description: 'Where orders on EVM chains deliver by default' }),
    solanaWalletAddress: solanaAddress.optional().meta({ description: 'Where orders on Solana deliver by default' }),
  })
  .meta({ example: { name: 'Acme', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' } });

export const updateMerchantBody = z
  .strictObject({
    tier: tier.nullable().optional().meta({ description: 'The plan; null for none' }),
    evmWalletAddress: evmAddress.nullable().optional().meta({ description: 'Where orders on EVM chains deliver by default; null for none' }),
    solanaWalletAddress: solanaAddress.nullable().optional().meta({ description: 'Where orders on Solana deliver by default; null for none' }),
    defaultPaymentCurrency: currencyCode
      .nullable()
      .optional()
      .meta({ description: 'The currency a fiat price is in when the create names none; null for none' }),
    enabledRails: z.array(z.enum(ALL_RAILS)).max(ALL_RAILS.length).optional().meta({ description: 'The rails an order takes when its create names none' }),
    dynamicOrdersEnabled: z.boolean().optional().meta({ description: 'Orders may have open amounts and be resized' }),
    completionDustThresholdUsdc: decimalString.optional().meta({ description: 'Below this many USDC still owed, an order counts as FULFILLED' }),
    feePayer: feePayer.optional().meta({ description: 'Who bears the fees when the create names nobody' }),
    apiKeyIpAllowlist: z
      .array(z.string().min(1).max(64))
      .max(100)
      .optional()
      .meta({ description: 'The client addresses (IP addresses or CIDR ranges) the API keys are taken from; empty: any address' }),
    inPersonCheckoutEnabled: z.boolean().optional().meta({ description: 'The merchant may take in-person checkouts' }),
    remediationActionsEnabled: z
      .boolean()
      .optional()
      .meta({ description: 'Remediation actions (recreate, extend, fulfill-sar) are on for the account; off, they answer 503 FEATURE_DISABLED' }),
    remediationExtensionsEnabled: z.boolean().optional().meta({ description: 'Extensions are on for the account; off, extend answers 503 FEATURE_DISABLED' }),
    disableBranding: disableBranding.optional(),
    checkoutTheme: checkoutThemeInput.nullable().optional().meta({ description: 'The checkout page theme; null for Peer’s default look' }),
    referralSplitConfig: referralSplitInput
      .nullable()
      .optional()
      .meta({ description: 'How the platform’s fee on fiat-rail payments is shared with referral partners, for orders created from now on; null for none' }),
    cryptoReferralSplitConfig: referralSplitInput.nullable().optional().meta({ description: 'The same for crypto-rail payments; null for none' }),
    payouts: payoutSettingsChange.nullable().optional().meta({
      description:
        'Document 2’s payout settings: the fields sent merge over the account’s (over the defaults while payouts are not set up); null clears them, and payouts are then refused with 409 MERCHANT_CONFIG_MISSING',
    }),
  })
  .refine((body) => Object.keys(body).length > 0, 'send at least one setting to change')
  .meta({ example: { tier: 'PRO', enabledRails: ['venmo', 'zelle'] } });

export const merchantProfile = z
  .object({
    id: z.string().meta({ description: 'The account id (mer_…); live and sandbox are separate accounts' }),
    name: z.string().meta({ description: 'The shop’s name, shown to customers' }),
    logoUrl: z.string().nullable().meta({ description: 'The shop’s logo, shown on the checkout page; null for none' }),
    industryType: z.string().nullable().meta({ description: 'The shop’s industry, from onboarding; null when not given' }),
    industryOtherText: z.string().nullable().meta({ description: 'The industry in the merchant’s words when it is none of the listed ones; null otherwise' }),
    integrationPath: z.string().nullable().meta({ description: 'How the merchant integrates, from onboarding; null when not given' }),
    onboardingCompletedAt: z.string().nullable().meta({ description: 'When onboarding was completed (ISO 8601); null until it is' }),
    onboardingSkippedAt: z.string().nullable().meta({ description: 'When onboarding was skipped (ISO 8601); null unless it was' }),
    apiKey: z.string().meta({ description: 'Which key is in use: its prefix and last four characters. Keys are stored only as hashes.' }),
    apiKeyIpAllowlist: z.array(z.string()).meta({ description: 'The client addresses (canonical CIDR entries) the key is taken from; empty: any address' }),
    environment: environment.meta({ description: 'LIVE, or SANDBOX where no money moves' }),
    sandboxMerchantId: z.string().nullable().meta({ description: 'On a live account, its sandbox twin; null on a sandbox account' }),
    inPersonCheckoutEnabled: z.boolean().meta({ description: 'The merchant may take in-person checkouts' }),
    evmWalletAddress: z.string().nullable().meta({ description: 'Where orders on EVM chains deliver by default; null for none' }),
    solanaWalletAddress: z.string().nullable().meta({ description: 'Where orders on Solana deliver by default; null for none' }),
    v1EvmWalletAddress: z.string().nullable().meta({ description: 'The EVM wallet of the first version of the platform; null for none' }),
    v1SolanaWalletAddress: z.string().nullable().meta({ description: 'The Solana wallet of the first version of the platform; null for none' }),
    tier: tier.nullable().meta({ description: 'The plan: BASE, PRO or CONCIERGE; null until one is chosen, and a live order needs one' }),
    masterMerchantId: z.string().nullable().meta({ description: 'The master account of a sub-merchant; null otherwise' }),
    createdAt: z.string().meta({ description: 'When the account was created (ISO 8601)' }),
    updatedAt: z.string().meta({ description: 'When the account last changed (ISO 8601)' }),
    merchantConfig: z
      .object({
        defaultPaymentCurrency: z.string().nullable().meta({ description: 'The currency a fiat price is in when the create names none; null for none' }),
        enabledRails: z.array(z.string()).meta({ description: 'The rails an order takes when its create names none' }),
        dynamicOrdersEnabled: z.boolean().meta({ description: 'Orders may have open amounts and be resized' }),
        completionDustThresholdUsdc: z.string().meta({ description: 'Below this many USDC still owed, an order counts as FULFILLED' }),
        feePayer: feePayer.meta({ description: 'Who bears the fees when the create names nobody' }),
        remediationActionsEnabled: z.boolean().meta({ description: 'Remediation actions are on for the account (Peer-side staff switch them)' }),
        remediationExtensionsEnabled: z.boolean().meta({ description: 'Extensions are on for the account (Peer-side staff switch them)' }),
        referralSplitConfig: referralSplitConfig
          .nullable()
          .meta({ description: 'How the platform’s fee on fiat-rail payments is shared with referral partners; null for none' }),
        cryptoReferralSplitConfig: referralSplitConfig.nullable().meta({ description: 'The same for crypto-rail payments; null for none' }),
      })
      .nullable()
      .meta({ description: 'The defaults orders are created with; null for none' }),
    merchantUsers: merchantUsers.meta({
      description: 'The business’s dashboard team (docs/dashboard-auth.md), the same on its live and sandbox accounts; empty until an Owner is added',
    }),
    payouts: merchantPayoutSettings.nullable().meta({ description: 'The payout settings (document 2); null until payouts are set up' }),
  })
  .meta({ id: 'MerchantProfile', description: 'A merchant account, as its own API key reads it' });

export type MerchantProfile = z.output<typeof merchantProfile>;

export const adminMerchantProfile = merchantProfile
  .extend({ payouts: adminPayoutSettings.nullable().meta({ description: 'The payout settings (document 2); null until payouts are set up' }) })
  .meta({ id: 'AdminMerchantProfile', description: 'A merchant account as the admin API shows it: its profile, with the service’s payout fee' });

export type AdminMerchantProfile = z.output<typeof adminMerchantProfile>;

export const createdMerchant = z
  .object({
    merchant: adminMerchantProfile,
    sandboxMerchant: adminMerchantProfile,
    liveApiKey: z.string().meta({ description: 'Shown here and on rotation only' }),
    sandboxApiKey: z.string().meta({ description: 'Shown here and on rotation only' }),
  })
  .meta({ id: 'CreatedMerchant' });

export const rotatedApiKey = z
  .object({ merchant: adminMerchantProfile, apiKey: z.string().meta({ description: 'The new key, shown once; the old one no longer works' }) })
  .meta({ id: 'RotatedApiKey' });
