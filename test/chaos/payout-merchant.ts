/**
 * What the tests that drive a node process over HTTP need to pay customers out: a live merchant
 * made over the admin API, with document 2's worked payout settings.
 */
import { WORKED_PAYOUT_SETTINGS } from '../support/payout-fakes.js';
import { call, ok } from './http-polls.js';

/** The merchant's live id and key; `methods` its payout methods, document 2's worked ones unless given. */
export async function payoutMerchant(
  url: string,
  adminToken: string,
  name: string,
  methods: readonly string[] = WORKED_PAYOUT_SETTINGS.methods,
): Promise<{ id: string; liveApiKey: string }> {
  const headers = { authorization: `Bearer ${adminToken}` };
  const made = ok(
    await call(url, 'POST', '/internal/v1/merchants', {
      headers,
      body: { name, tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' },
    }),
    201,
    'the merchant',
  );
  ok(
    await call(url, 'PATCH', `/internal/v1/merchants/${made.merchant.id}`, { headers, body: { payouts: { ...WORKED_PAYOUT_SETTINGS, methods } } }),
    200,
    'payout settings',
  );
  return { id: made.merchant.id, liveApiKey: made.liveApiKey };
}
