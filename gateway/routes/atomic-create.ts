/** POST /v2/deposits/atomic-create and GET /v2/deposits/atomic-create/{requestId} (bearer; docs/atomic-create.md). */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { ATOMIC_CREATE_RETRY_AFTER_SECONDS, type AtomicCreate } from '../deposits/atomic-create.js';
import { ApiError, reply } from '../envelope.js';
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
    const result = await retryLater(ctx, atomicCreate.create(walletOf(ctx).address, request));
    reply(ctx, 201, 'Deposit batch submitted', atomicCreateResult, result);
  });

  router.get('/deposits/atomic-create/:requestId', bearer, async (ctx) => {
    const { requestId } = parseOrThrow(atomicCreatePath, ctx.params);
    reply(ctx, 200, 'Atomic-create status', atomicCreateStatus, await retryLater(ctx, atomicCreate.status(walletOf(ctx).address, requestId)));
  });

  return router;
}

/** A 503 of ours tells the client when to ask again. */
async function retryLater<T>(ctx: { set(field: string, value: string): void }, answer: Promise<T>): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 503) ctx.set('retry-after', String(ATOMIC_CREATE_RETRY_AFTER_SECONDS));
    throw error;
  }
}
