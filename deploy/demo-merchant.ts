/**
 * On a fresh embedded store (the node made it, so it is empty), `npm start` opens a demo merchant so the API can be
 * tried at once. Its two keys are printed once, to stderr as plain text, never
 * through the JSON log stream: keys must not reach log storage.
 */
import type { MerchantAdmin } from '../gateway/merchants/merchant-admin.js';

export async function openDemoMerchant(admin: MerchantAdmin, write: (text: string) => void): Promise<void> {
  const demo = await admin.create({ name: 'Demo merchant', tier: 'BASE', evmWalletAddress: '0x000000000000000000000000000000000000dEaD' });
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
