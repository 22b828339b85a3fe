/** Builds the Koa application: cross-cutting middleware first, then one router per API area. */
import Koa from 'koa';
import type { Logger } from 'pino';
import { errorEnvelope } from './middleware/errors.js';
import { requestContext, type RequestState } from './middleware/request-context.js';
import { healthRoutes, type HealthDependencies } from './routes/health.js';

export interface GatewayDependencies extends HealthDependencies {
  logger: Logger;
}

export function createGateway(deps: GatewayDependencies): Koa<RequestState> {
  const app = new Koa<RequestState>();
  app.proxy = false;
  app.silent = true;
  app.use(requestContext(deps.logger));
  app.use(errorEnvelope());
  const health = healthRoutes(deps);
  app.use(health.routes());
  app.use(health.allowedMethods());
  return app;
}
