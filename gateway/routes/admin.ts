/**
 * The admin API under /internal/v1: create a merchant and its sandbox twin, change an
 * account's settings, rotate its key; and, given a dead-letter store, list, read, retry
 * and discard dead letters (routes/dead-letters.ts); inspect actors and their history
 * (routes/inspector.ts); list the machines and read their charts
 * (routes/machines.ts). The router carries no guard of its own: app.ts
 * mounts it only behind the admin token's guarded area (middleware/guarded-area.ts),
 * the one way in, and only when a token is configured.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { DeadLetterStore } from '../../actors/runtime/dead-letters.js';
import { reply, respond } from '../envelope.js';
import type { MerchantAccounts } from '../merchants/merchant-accounts.js';
import type { MerchantAdmin } from '../merchants/merchant-admin.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';
import { createdMerchant, createMerchantBody, merchantPath, merchantProfile, rotatedApiKey, updateMerchantBody } from '../merchants/merchant-schemas.js';
import { parseOrThrow } from '../validation.js';
import { addDeadLetterRoutes } from './dead-letters.js';
import { addInspectorRoutes, type InspectorRouteDependencies } from './inspector.js';
import { addMachineRoutes } from './machines.js';
import type { MachineCharts } from '../engineers/machine-charts.js';

export const ADMIN_AREA = '/internal';

export function adminRoutes(deps: {
  admin: MerchantAdmin;
  accounts: MerchantAccounts;
  body: Middleware<GatewayState>;
  /** Unset, the dead-letter routes are not mounted. */
  deadLetters?: DeadLetterStore | undefined;
  inspector: InspectorRouteDependencies;
  machines: MachineCharts;
}): Router<GatewayState> {
  const router = exactRouter(`${ADMIN_AREA}/v1`);

  router.post('/merchants', deps.body, async (ctx) => {
    const body = parseOrThrow(createMerchantBody, ctx.request.body);
    reply(ctx, 201, 'Merchant created', createdMerchant, await deps.admin.create(body));
  });

  router.patch('/merchants/:merchantId', deps.body, async (ctx) => {
    const { merchantId } = parseOrThrow(merchantPath, ctx.params);
    const body = parseOrThrow(updateMerchantBody, ctx.request.body);
    reply(ctx, 200, 'Merchant updated', merchantProfile, await deps.admin.update(merchantId, body));
  });

  router.post('/merchants/:merchantId/api-keys/rotate', async (ctx) => {
    const { merchantId } = parseOrThrow(merchantPath, ctx.params);
    const account = await deps.accounts.byId(merchantId);
    if (!account) return respond(ctx, 404, 'Merchant not found', null, 'NOT_FOUND');
    reply(ctx, 200, 'API key rotated', rotatedApiKey, await deps.admin.rotateApiKey(account.merchantId, account.environment));
  });

  if (deps.deadLetters) addDeadLetterRoutes(router, { deadLetters: deps.deadLetters, body: deps.body });
  addInspectorRoutes(router, { ...deps.inspector, body: deps.body, deadLetters: deps.deadLetters });
  addMachineRoutes(router, deps.machines);

  return router;
}
