/** The Koa state every route sees: request id and logger, client address, and the authenticated merchant account once the API key is checked. */
import type { MerchantAccount } from './merchants/merchant-accounts.js';
import type { AuthState } from './middleware/api-key.js';

export type GatewayState = AuthState<MerchantAccount>;
