/**
 * The admin API under /internal/v1, guarded by the admin bearer token: create a
 * merchant and its sandbox twin, change an account's settings, rotate its key.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import { respond } from '../envelope.js';
import { MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { MerchantAdmin } from '../merchants/merchant-admin.js';
import type { GatewayState } from '../state.js';
import { createMerchantBody, updateMerchantBody } from '../schemas/merchant-schemas.js';
import { parseOrThrow } from '../validation.js';

export function adminRoutes(deps: { guard: Middleware<GatewayState>; admin: MerchantAdmin; accounts: MerchantAccounts; body: Middleware<GatewayState> }): Router<GatewayState> {
  const router = new Router<GatewayState>({ prefix: '/internal/v1' });
  router.use(deps.guard);
  router.use(deps.body);

  router.post('/merchants', async (ctx) => {
    const body = parseOrThrow(createMerchantBody, ctx.request.body);
    respond(ctx, 201, 'Merchant created', await deps.admin.create(body));
  });

  router.patch('/merchants/:merchantId', async (ctx) => {
    const body = parseOrThrow(updateMerchantBody, ctx.request.body);
    respond(ctx, 200, 'Merchant updated', await deps.admin.update(ctx.params.merchantId!, body));
  });

  router.post('/merchants/:merchantId/api-keys/rotate', async (ctx) => {
    const account = await deps.accounts.byId(ctx.params.merchantId!);
    if (!account) return respond(ctx, 404, 'Merchant not found', null, 'NOT_FOUND');
    respond(ctx, 200, 'API key rotated', await deps.admin.rotateApiKey(account.merchantId, account.environment));
  });

  return router;
}
