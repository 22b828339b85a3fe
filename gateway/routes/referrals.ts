/** Makers' referrals (bearer; docs/maker-referrals.md), at document 3's paths. */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { reply } from '../envelope.js';
import { walletOf } from '../middleware/bearer-auth.js';
import type { MakerReferrals } from '../referrals/maker-referrals.js';
import { exactRouter } from '../routing.js';
import { redeemBody, referral, referralCodeBody } from '../schemas/referral-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export interface ReferralRouteDependencies {
  referrals: MakerReferrals;
  bearer: Middleware<GatewayState>;
  body: Middleware<GatewayState>;
}

export function referralRoutes({ referrals, bearer, body }: ReferralRouteDependencies): Router<GatewayState> {
  // Document 3 writes these paths with /v1 twice.
  const router = exactRouter('/v1/v1');

  router.get('/me/referral', bearer, async (ctx) => {
    reply(ctx, 200, 'Referral', referral, await referrals.read(walletOf(ctx)));
  });

  router.patch('/me/referral/code', bearer, body, async (ctx) => {
    const { code } = parseOrThrow(referralCodeBody, ctx.request.body);
    reply(ctx, 200, 'Referral code set', referral, await referrals.setCode(walletOf(ctx), code));
  });

  router.post('/redeem', bearer, body, async (ctx) => {
    const { code } = parseOrThrow(redeemBody, ctx.request.body);
    reply(ctx, 201, 'Referral code redeemed', referral, await referrals.redeem(walletOf(ctx), code));
  });

  return router;
}
