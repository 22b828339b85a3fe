/** The merchant's integration endpoints (API key): the sandbox test order and the integration status. */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { reply } from '../envelope.js';
import { integrationStatus as status, type IntegrationStatusDependencies } from '../integration/integration-status.js';
import { sandboxTestOrder as testOrder, type SandboxTestOrderDependencies } from '../integration/sandbox-test-order.js';
import { exactRouter } from '../routing.js';
import { integrationStatus, sandboxTestOrder, sandboxTestOrderBody } from '../schemas/integration-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export type IntegrationRouteDependencies = SandboxTestOrderDependencies &
  IntegrationStatusDependencies & {
    auth: Middleware<GatewayState>;
    body: Middleware<GatewayState>;
  };

export function integrationRoutes(deps: IntegrationRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/api/v1');

  router.post('/sandbox/test-order', deps.auth, deps.body, async (ctx) => {
    const body = parseOrThrow(sandboxTestOrderBody, ctx.request.body);
    reply(ctx, 201, 'Test order paid', sandboxTestOrder, await testOrder(deps, ctx.state.account, body));
  });

  router.get('/integration/status', deps.auth, async (ctx) => {
    reply(ctx, 200, 'Integration status', integrationStatus, await status(deps, ctx.state.account));
  });

  return router;
}
