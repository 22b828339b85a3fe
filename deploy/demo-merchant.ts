/**
 * On an embedded store holding no merchant yet (a new data folder: deploy/node.ts
 * checks), `npm start` opens a demo merchant so the API can be tried at once, with every
 * fiat rail and the local conversion provider's crypto rail enabled, and a local dev
 * wallet its live orders deliver to. Its live account has payouts set up with every payout
 * method, a 1% merchant fee to the same wallet and the default service fee and step; its
 * sandbox account has none, since payouts refuse sandbox keys before reading any setting
 * (document 2), and settings there would only suggest otherwise. Its team has one Owner,
 * DEMO_OWNER_EMAIL, who signs in to the dashboard with a code the local mail catcher shows
 * (docs/dashboard-auth.md). Its two keys are shown once
 * by deploy/main.ts, on the terminal or stderr as plain text, never through the JSON log
 * stream: keys must not reach log storage, and only their hashes are kept.
 */
import type { MerchantAdmin } from '../gateway/merchants/merchant-admin.js';
import { DEMO_MERCHANT_NAME } from '../gateway/dev/demo-orders.js';
import { localDemoMerchantAccount } from '../indexer/chain/dev-accounts.js';
import { PAYOUT_RAILS } from '../machines/payout/payout-rails.js';
import { FIAT_RAILS } from '../machines/rails.js';

/** The crypto rail the local conversion provider serves, enabled on the demo merchant so checkout shows it. */
const DEMO_CRYPTO_RAIL = 'relay_42161';

/** The demo merchant's Owner: an address of the reserved example.com domain, so no code ever leaves the machine. */
export const DEMO_OWNER_EMAIL = 'owner@demo.example.com';

export interface DemoMerchantKeys {
  liveId: string;
  liveApiKey: string;
  sandboxId: string;
  sandboxApiKey: string;
}

export async function openDemoMerchant(admin: MerchantAdmin): Promise<DemoMerchantKeys> {
  const demo = await admin.create({ name: DEMO_MERCHANT_NAME, tier: 'BASE', evmWalletAddress: localDemoMerchantAccount().address });
  const enabledRails = [...FIAT_RAILS, DEMO_CRYPTO_RAIL];
  // Payouts merge over the defaults (the service's fee, every funding token, a 100 USDC step): only what differs is sent.
  const payouts = { methods: [...PAYOUT_RAILS], merchantFeeBps: 100, merchantWalletAddress: localDemoMerchantAccount().address };
  await admin.update(String(demo.merchant.id), { enabledRails, payouts });
  await admin.update(String(demo.sandboxMerchant.id), { enabledRails });
  await admin.addOwner(String(demo.merchant.id), DEMO_OWNER_EMAIL);
  return { liveId: String(demo.merchant.id), liveApiKey: demo.liveApiKey, sandboxId: String(demo.sandboxMerchant.id), sandboxApiKey: demo.sandboxApiKey };
}

/** The keys as plain lines, for stderr when no terminal shows the start banner. */
export function demoKeysText(keys: DemoMerchantKeys): string {
  return [
    '',
    'A demo merchant was created on this empty embedded store. Its API keys are shown only now:',
    `  live    ${keys.liveId}  X-API-Key: ${keys.liveApiKey}`,
    `  sandbox ${keys.sandboxId}  X-API-Key: ${keys.sandboxApiKey}`,
    '',
  ].join('\n');
}

/** A restart over a folder that holds merchants says where the keys went, since they cannot be shown again. */
export function existingMerchantsText(dataDir: string): string {
  return (
    `\nThe data folder ${dataDir} already holds merchants; their API keys were shown when they were created.\n` +
    'To get a new key, rotate it: POST /internal/v1/merchants/{merchantId}/api-keys/rotate with the admin token.\n'
  );
}
