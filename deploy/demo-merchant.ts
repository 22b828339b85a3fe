/**
 * On an embedded store holding no merchant yet (a new data folder: deploy/node.ts
 * checks), `npm start` opens a demo merchant so the API can be tried at once, with every
 * fiat rail and the local conversion provider's crypto rail enabled. Its two
 * keys are printed once, to stderr as plain text, never through the JSON log stream:
 * keys must not reach log storage, and only their hashes are kept.
 */
import type { MerchantAdmin } from '../gateway/merchants/merchant-admin.js';
import { FIAT_RAILS } from '../machines/rails.js';

/** The crypto rail the local conversion provider serves, enabled on the demo merchant so checkout shows it. */
const DEMO_CRYPTO_RAIL = 'relay_42161';

export async function openDemoMerchant(admin: MerchantAdmin, write: (text: string) => void): Promise<void> {
  const demo = await admin.create({ name: 'Demo merchant', tier: 'BASE', evmWalletAddress: '0x000000000000000000000000000000000000dEaD' });
  for (const account of [demo.merchant, demo.sandboxMerchant]) await admin.update(String(account.id), { enabledRails: [...FIAT_RAILS, DEMO_CRYPTO_RAIL] });
  write(
    [
      '',
      'A demo merchant was created on this empty embedded store. Its API keys are shown only now:',
      `  live    ${String(demo.merchant.id)}  X-API-Key: ${demo.liveApiKey}`,
      `  sandbox ${String(demo.sandboxMerchant.id)}  X-API-Key: ${demo.sandboxApiKey}`,
      '',
    ].join('\n') + '\n',
  );
}

/** A restart over a folder that holds merchants says where the keys went, since they cannot be shown again. */
export function noteExistingMerchants(write: (text: string) => void, dataDir: string): void {
  write(
    `\nThe data folder ${dataDir} already holds merchants; their API keys were shown when they were created.\n` +
      'To get a new key, rotate it: POST /internal/v1/merchants/{merchantId}/api-keys/rotate with PEER_ADMIN_TOKEN set.\n\n',
  );
}
