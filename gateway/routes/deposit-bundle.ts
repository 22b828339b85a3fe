/** Document 3's deposit bundle (no authentication): GET /v2/deposits/:depositId/bundle (gateway/market/deposit-bundle.ts). */
import type Router from '@koa/router';
import { reply } from '../envelope.js';
import { noDepositBundles, type DepositBundles } from '../market/deposit-bundle.js';
import { exactRouter } from '../routing.js';
import { depositBundle, depositBundlePath, depositBundleQuery } from '../schemas/deposit-bundle-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export function depositBundleRoutes(bundles: DepositBundles | null): Router<GatewayState> {
  const router = exactRouter('/v2');
  router.get('/deposits/:depositId/bundle', async (ctx) => {
    const { depositId } = parseOrThrow(depositBundlePath, ctx.params);
    const query = parseOrThrow(depositBundleQuery, ctx.query);
    if (!bundles) throw noDepositBundles();
    reply(ctx, 200, 'Deposit bundle', depositBundle, await bundles.bundle(depositId, query));
  });
  return router;
}
