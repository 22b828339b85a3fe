/**
 * The `merchant` actor kind: one per account (live or sandbox). Its view is the
 * MerchantProfile of document 1 plus what the gateway looks accounts up by: the
 * API key hash (unique) and the settings orders are created with.
 */
import type { AnyMachineSnapshot } from 'xstate';
import { formatUsdc } from '../../machines/money.js';
import { merchantMachine, type MerchantContext } from '../../machines/merchant/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export function merchantProfile(context: MerchantContext) {
  const { settings } = context;
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
    },
    merchantUsers: [],
  };
}

export const merchantKind = defineKind({
  name: 'merchant',
  machine: merchantMachine,
  machineVersion: 1,
  createdBy: ['CREATE'],
  view: (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as MerchantContext;
    return {
      profile: merchantProfile(context),
      environment: context.environment,
      twinId: context.twinId,
      apiKeyHash: context.apiKeyHash,
      apiKeyLastUsedAt: context.apiKeyLastUsedAt ?? null,
      name: context.name,
      // What a payout is created with; not part of the MerchantProfile (the service's fee is never shown to the merchant).
      payoutSettings: context.settings.payouts ?? null,
    };
  },
  reply: (snapshot) => merchantProfile(snapshot.context as MerchantContext),
  viewIndexes: [{ key: { 'view.apiKeyHash': 1 }, unique: true, name: 'merchant_by_api_key' }],
});
