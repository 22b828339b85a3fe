/** Request bodies of the admin API for merchants, and the MerchantProfile it answers. */
import { z } from 'zod';
import { ALL_RAILS } from '../../machines/rails.js';
import { solanaAddress } from './addresses.js';
import { currencyCode, decimalString, environment, evmAddress, feePayer, merchantId, tier } from './common.js';

export const merchantPath = z.strictObject({ merchantId });

export const createMerchantBody = z
  .strictObject({
    name: z.string().trim().min(1).max(120),
    tier: tier.optional(),
    evmWalletAddress: evmAddress.optional(),
    solanaWalletAddress: solanaAddress.optional(),
  })
  .meta({ example: { name: 'Acme', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' } });

export const updateMerchantBody = z
  .strictObject({
    tier: tier.nullable().optional(),
    evmWalletAddress: evmAddress.nullable().optional(),
    solanaWalletAddress: solanaAddress.nullable().optional(),
    defaultPaymentCurrency: currencyCode.nullable().optional(),
    enabledRails: z.array(z.enum(ALL_RAILS)).max(ALL_RAILS.length).optional(),
    dynamicOrdersEnabled: z.boolean().optional(),
    completionDustThresholdUsdc: decimalString.optional(),
    feePayer: feePayer.optional(),
    apiKeyIpAllowlist: z.array(z.string().min(1).max(64)).max(100).optional(),
    inPersonCheckoutEnabled: z.boolean().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'send at least one setting to change')
  .meta({ example: { tier: 'PRO', enabledRails: ['venmo', 'zelle'] } });

export const merchantProfile = z
  .object({
    id: z.string(),
    name: z.string(),
    logoUrl: z.string().nullable(),
    industryType: z.string().nullable(),
    industryOtherText: z.string().nullable(),
    integrationPath: z.string().nullable(),
    onboardingCompletedAt: z.string().nullable(),
    onboardingSkippedAt: z.string().nullable(),
    apiKey: z.string().meta({ description: 'Which key is in use: its prefix and last four characters. Keys are stored only as hashes.' }),
    apiKeyIpAllowlist: z.array(z.string()),
    environment,
    sandboxMerchantId: z.string().nullable(),
    inPersonCheckoutEnabled: z.boolean(),
    evmWalletAddress: z.string().nullable(),
    solanaWalletAddress: z.string().nullable(),
    v1EvmWalletAddress: z.string().nullable(),
    v1SolanaWalletAddress: z.string().nullable(),
    tier: tier.nullable(),
    masterMerchantId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    merchantConfig: z
      .object({
        defaultPaymentCurrency: z.string().nullable(),
        enabledRails: z.array(z.string()),
        dynamicOrdersEnabled: z.boolean(),
        completionDustThresholdUsdc: z.string(),
        feePayer,
      })
      .nullable(),
    merchantUsers: z.array(z.record(z.string(), z.unknown())).meta({ description: 'The dashboard users of the account; empty for accounts made through the admin API' }),
  })
  .meta({ id: 'MerchantProfile' });

export type MerchantProfile = z.output<typeof merchantProfile>;

export const createdMerchant = z
  .object({
    merchant: merchantProfile,
    sandboxMerchant: merchantProfile,
    liveApiKey: z.string().meta({ description: 'Shown here and on rotation only' }),
    sandboxApiKey: z.string().meta({ description: 'Shown here and on rotation only' }),
  })
  .meta({ id: 'CreatedMerchant' });

export const rotatedApiKey = z
  .object({ merchant: merchantProfile, apiKey: z.string().meta({ description: 'The new key, shown once; the old one no longer works' }) })
  .meta({ id: 'RotatedApiKey' });
