/** GET /api/v1/merchants/me: the MerchantProfile of the key's account. */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { reply } from '../envelope.js';
import { merchantProfile } from '../schemas/merchant-schemas.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';

export function merchantRoutes(auth: Middleware<GatewayState>): Router<GatewayState> {
  const router = exactRouter('/api/v1');
  router.get('/merchants/me', auth, (ctx) => reply(ctx, 200, 'Merchant profile', merchantProfile, ctx.state.account.profile));
  return router;
}
