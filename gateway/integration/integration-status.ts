/**
 * GET /api/v1/integration/status: what a merchant still has to do before going live,
 * from facts the platform holds about both of its accounts (live and its sandbox twin),
 * whichever key asks. Each step says whether it is done, whether going live needs it,
 * and what stands behind the answer. Asked with the sandbox key, it names nothing of
 * the live account (no id, no address), as the sandbox profile does not.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { orderKind } from '../../actors/kinds/order-kind.js';
import { deliveryKind } from '../../actors/kinds/delivery-kind.js';
import { webhookKind } from '../../actors/kinds/webhook-kind.js';
import type { MerchantAccount, MerchantAccounts } from '../merchants/merchant-accounts.js';

/** A key not seen for this long no longer counts as in use. */
export const KEY_RECENT_MS = 30 * 24 * 60 * 60 * 1000;

export type StepId =
  | 'API_KEY_USED'
  | 'WEBHOOK_CONFIGURED'
  | 'WEBHOOK_DELIVERING'
  | 'TEST_ORDER_FULFILLED'
  | 'WALLET_ON_FILE'
  | 'PLAN_SELECTED'
  | 'IP_ALLOWLIST_SET';

export interface IntegrationStep {
  id: StepId;
  done: boolean;
  /** Whether going live needs it; the allowlist is recommended, not required. */
  required: boolean;
  detail: string;
}

export interface IntegrationStatusDependencies {
  system: ActorSystem;
  accounts: MerchantAccounts;
  now(): string;
}

export async function integrationStatus(deps: IntegrationStatusDependencies, account: MerchantAccount) {
  const twin = await deps.accounts.byId(account.twinId);
  const [live, sandbox] = account.environment === 'LIVE' ? [account, twin] : [twin, account];
  const both = [live, sandbox].filter((entry): entry is MerchantAccount => entry !== null);
  const ids = both.map((entry) => entry.merchantId);
  const now = Date.parse(deps.now());

  const keyUses = both.filter((entry) => entry.apiKeyLastUsedAt !== null && now - Date.parse(entry.apiKeyLastUsedAt) < KEY_RECENT_MS);
  const webhooks = (await deps.system.views(webhookKind).find({ 'view.merchantId': { $in: ids }, 'view.active': true }, { projection: { view: 1 } })).map(
    (doc) => doc.view.webhook,
  );
  const lastAnswered = await deps.system
    .views(deliveryKind)
    .findOne(
      { 'view.merchantId': { $in: ids }, 'view.delivery.attempts': { $gt: 0 }, 'view.status': { $ne: 'PENDING' } },
      { sort: { 'view.delivery.lastAttemptAt': -1 }, projection: { view: 1 } },
    );
  const last = lastAnswered?.view;
  const testOrder = sandbox
    ? await deps.system.views(orderKind).findOne({ 'view.merchantId': sandbox.merchantId, 'view.status': 'FULFILLED' }, { projection: { _id: 1 } })
    : null;
  const profile = live?.profile;

  const steps: IntegrationStep[] = [
    {
      id: 'API_KEY_USED',
      done: keyUses.length > 0,
      required: true,
      detail:
        keyUses.length > 0
          ? `Used in the last 30 days: ${keyUses.map((entry) => `${entry.environment.toLowerCase()} key (${entry.apiKeyLastUsedAt})`).join(', ')}`
          : 'Neither key has called the API in the last 30 days',
    },
    {
      id: 'WEBHOOK_CONFIGURED',
      done: webhooks.length > 0,
      required: true,
      detail: webhooks.length > 0 ? `${webhooks.length} active webhook${webhooks.length === 1 ? '' : 's'}` : 'No active webhook: POST /api/v1/webhooks',
    },
    {
      id: 'WEBHOOK_DELIVERING',
      done: last?.status === 'DELIVERED',
      required: true,
      detail: last
        ? `The last delivery (${last.eventType}, ${last.delivery.lastAttemptAt}) ${last.status === 'DELIVERED' ? 'was answered 2xx' : `failed: ${last.delivery.failure?.message ?? `answered ${last.delivery.responseCode}`}`}`
        : 'Nothing delivered yet: POST /api/v1/webhooks/{id}/test or /api/v1/sandbox/test-order',
    },
    {
      id: 'TEST_ORDER_FULFILLED',
      done: testOrder !== null,
      required: true,
      detail: testOrder
        ? `Sandbox order ${testOrder._id} is FULFILLED`
        : 'No sandbox order fulfilled yet: POST /api/v1/sandbox/test-order with the sandbox key',
    },
    {
      id: 'WALLET_ON_FILE',
      done: Boolean(profile?.evmWalletAddress || profile?.solanaWalletAddress),
      required: true,
      detail:
        profile?.evmWalletAddress || profile?.solanaWalletAddress
          ? 'The live account has a wallet USDC is delivered to'
          : 'The live account has no EVM or Solana wallet on file',
    },
    {
      id: 'PLAN_SELECTED',
      done: Boolean(profile?.tier),
      required: true,
      detail: profile?.tier ? `Plan ${profile.tier}` : 'No plan (tier) selected for the live account',
    },
    {
      id: 'IP_ALLOWLIST_SET',
      done: (profile?.apiKeyIpAllowlist.length ?? 0) > 0,
      required: false,
      detail:
        (profile?.apiKeyIpAllowlist.length ?? 0) > 0
          ? `The live key is limited to ${profile!.apiKeyIpAllowlist.length} address range${profile!.apiKeyIpAllowlist.length === 1 ? '' : 's'}`
          : 'Recommended: limit the live key to your servers’ addresses',
    },
  ];
  return {
    merchantId: account.merchantId,
    environment: account.environment,
    readyForLive: steps.every((step) => step.done || !step.required),
    steps,
  };
}
