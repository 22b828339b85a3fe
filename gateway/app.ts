/**
 * Builds the Koa application: cross-cutting middleware first (request id, envelope,
 * client address, the global rate limit), then one router per API area.
 */
import Koa from 'koa';
import type { Logger } from 'pino';
import type { RateSource } from '../actors/rates/rate-source.js';
import { MerchantAccounts } from './merchants/merchant-accounts.js';
import { MerchantAdmin } from './merchants/merchant-admin.js';
import { adminAuth } from './middleware/admin-token.js';
import { apiKeyAuth } from './middleware/api-key.js';
import { jsonBody } from './middleware/body.js';
import { clientIp } from './middleware/client-ip.js';
import { errorEnvelope } from './middleware/errors.js';
import { rateLimit } from './middleware/rate-limit.js';
import { requestContext } from './middleware/request-context.js';
import type { GatewayState } from './state.js';
import { adminRoutes } from './routes/admin.js';
import { docsRoutes } from './routes/docs.js';
import { healthRoutes, type HealthDependencies } from './routes/health.js';
import { merchantRoutes } from './routes/merchants.js';
import { orderRoutes } from './routes/orders.js';

export interface GatewayDependencies extends HealthDependencies {
  logger: Logger;
  rates: RateSource;
  adminToken: string | undefined;
  trustedProxies: string[];
  rateLimitPerMinute: number;
  bodyLimitBytes: number;
  idSecret: string;
  /** ISO time for the records commands write. */
  now(): string;
}

export function createGateway(deps: GatewayDependencies): Koa<GatewayState> {
  const app = new Koa<GatewayState>();
  app.proxy = false;
  app.silent = true;
  app.use(requestContext(deps.logger));
  app.use(errorEnvelope());
  app.use(clientIp(deps.trustedProxies));
  app.use(rateLimit({ perMinute: deps.rateLimitPerMinute }));

  const accounts = new MerchantAccounts(deps.system);
  const admin = new MerchantAdmin(deps.system, deps.now);
  const auth = apiKeyAuth((keyHash) => accounts.byKeyHash(keyHash));
  const body = jsonBody(deps.bodyLimitBytes);
  const routers = [
    healthRoutes(deps),
    docsRoutes(deps.version),
    adminRoutes({ guard: adminAuth(deps.adminToken), admin, accounts, body }),
    merchantRoutes(auth),
    orderRoutes({ ...deps, accounts, auth, body }),
  ];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
