/** What the dashboard's operations are given (gateway/app.ts builds it once). */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { AuditLog } from './audit-log.js';
import type { DashboardAuth } from './dashboard-auth.js';
import type { DashboardMail } from './dashboard-mail.js';
import type { DashboardPasskeys } from './passkeys.js';
import type { CsrfTokens } from './session-tokens.js';

export interface DashboardDependencies {
  system: ActorSystem;
  accounts: MerchantAccounts;
  auth: DashboardAuth;
  audit: AuditLog;
  csrf: CsrfTokens;
  mail: DashboardMail;
  passkeys: DashboardPasskeys;
  /** Set-Cookie with Secure: everywhere but development, where the node is served over plain http. */
  secureCookies: boolean;
  now(): string;
}
