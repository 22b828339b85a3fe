/** Makers' sign-in with an Ethereum wallet (docs/maker-auth.md): POST /v2/auth/nonce, /v2/auth/verify and /v2/auth/logout. */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { reply } from '../envelope.js';
import { walletOf } from '../middleware/bearer-auth.js';
import { exactRouter } from '../routing.js';
import { signedOut, signInBody, signInChallenge, makerToken } from '../schemas/wallet-auth-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';
import type { WalletSessions } from '../wallet-auth/wallet-sessions.js';

export interface WalletAuthRouteDependencies {
  sessions: WalletSessions;
  bearer: Middleware<GatewayState>;
  body: Middleware<GatewayState>;
}

export function walletAuthRoutes({ sessions, bearer, body }: WalletAuthRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/v2/auth');

  router.post('/nonce', (ctx) => {
    // Each answer is a new nonce: nothing may keep one to hand out twice.
    ctx.set('cache-control', 'no-store');
    reply(ctx, 200, 'Sign-in nonce', signInChallenge, sessions.challenge());
  });

  router.post('/verify', body, async (ctx) => {
    const { message, signature } = parseOrThrow(signInBody, ctx.request.body);
    ctx.set('cache-control', 'no-store');
    reply(ctx, 200, 'Signed in', makerToken, await sessions.signIn(message, signature as `0x${string}`));
  });

  router.post('/logout', bearer, async (ctx) => {
    reply(ctx, 200, 'Signed out', signedOut, await sessions.signOut(walletOf(ctx)));
  });

  return router;
}
