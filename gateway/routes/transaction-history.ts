/** GET /v2/transaction-history/{chain}/{token}: the signed-in wallet's USDC transfers (bearer; docs/transaction-history.md). */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { reply } from '../envelope.js';
import { walletOf } from '../middleware/bearer-auth.js';
import { walletRateLimit } from '../middleware/rate-limit.js';
import { exactRouter } from '../routing.js';
import { transactionHistory, transactionHistoryPath } from '../schemas/transaction-history-schemas.js';
import type { GatewayState } from '../state.js';
import type { WalletHistory } from '../transaction-history/wallet-history.js';
import { parseOrThrow } from '../validation.js';

export interface TransactionHistoryRouteDependencies {
  history: WalletHistory;
  bearer: Middleware<GatewayState>;
  perMinute: number;
}

export function transactionHistoryRoutes({ history, bearer, perMinute }: TransactionHistoryRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/v2');
  router.get('/transaction-history/:chain/:token', bearer, walletRateLimit({ perMinute }), async (ctx) => {
    const { chain, token } = parseOrThrow(transactionHistoryPath, ctx.params);
    reply(ctx, 200, 'Transaction history', transactionHistory, await history.read(walletOf(ctx), chain, token));
  });

  return router;
}
