/**
 * The Koa state every route sees: request id and logger, client address, and once a merchant
 * guard has passed, the merchant account and who acts on it (the API key or a dashboard session).
 */
import type { PrincipalState } from './dashboard/principal.js';
import type { MerchantAccount } from './merchants/merchant-accounts.js';
import type { AuthState } from './middleware/api-key.js';

export type GatewayState = AuthState<MerchantAccount> & PrincipalState;
