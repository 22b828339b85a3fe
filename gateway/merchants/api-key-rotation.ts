/**
 * A new API key for one account (LIVE or SANDBOX): only its hash and hint are kept, so the raw
 * key exists in this answer alone, and the previous key stops working at once. The operators
 * rotate through the admin API, an Owner through the dashboard.
 */
import { merchantKind } from '../../actors/kinds/merchant-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { Environment } from '../../machines/merchant/index.js';
import { apiKeyHint, generateApiKey, hashApiKey } from '../auth/api-keys.js';
import type { AdminMerchantProfile } from './merchant-schemas.js';

export async function rotateApiKey(
  system: ActorSystem,
  merchantId: string,
  environment: Environment,
  at: string,
): Promise<{ merchant: AdminMerchantProfile; apiKey: string }> {
  const apiKey = generateApiKey(environment);
  const merchant = await system.ask(merchantKind, merchantId, { type: 'ROTATE_API_KEY', apiKeyHash: hashApiKey(apiKey), apiKeyHint: apiKeyHint(apiKey), at });
  return { merchant, apiKey };
}
