/** POST /v2/deposits/atomic-create and GET /v2/deposits/atomic-create/{requestId} (bearer; docs/atomic-create.md). */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { AtomicCreate } from '../deposits/atomic-create.js';
import { reply } from '../envelope.js';
import { walletOf } from '../middleware/bearer-auth.js';
import { exactRouter } from '../routing.js';
import { atomicCreateBody, atomicCreatePath, atomicCreateResult, atomicCreateStatus } from '../schemas/atomic-create-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export interface AtomicCreateRouteDependencies {
  atomicCreate: AtomicCreate;
  bearer: Middleware<GatewayState>;
  body: Middleware<GatewayState>;
}

export function atomicCreateRoutes({ atomicCreate, bearer, body }: AtomicCreateRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/v2');
  router.post('/deposits/atomic-create', bearer, body, async (ctx) => {
    const request = parseOrThrow(atomicCreateBody, ctx.request.body);
    reply(ctx, 201, 'Deposit batch submitted', atomicCreateResult, await atomicCreate.create(walletOf(ctx).address, request));
  });

  router.get('/deposits/atomic-create/:requestId', bearer, async (ctx) => {
    const { requestId } = parseOrThrow(atomicCreatePath, ctx.params);
    reply(ctx, 200, 'Atomic-create status', atomicCreateStatus, await atomicCreate.status(walletOf(ctx).address, requestId));
  });

  return router;
}
