/**
 * Document 3's maker leaderboard (no authentication): GET /v2/leaderboard (a page of makers
 * sorted by profit, volume or liquidity), /v2/leaderboard/summary, /v2/leaderboard/rank/:makerId
 * and /v2/leaderboard/maker/:makerId, all answered from one snapshot (gateway/market/leaderboard.ts).
 */
import type Router from '@koa/router';
import { reply } from '../envelope.js';
import { noLeaderboard, type Leaderboard } from '../market/leaderboard.js';
import { exactRouter } from '../routing.js';
import {
  leaderboardMakerDetail,
  leaderboardPage,
  leaderboardQuery,
  leaderboardRank,
  leaderboardRankQuery,
  leaderboardSummary,
  makerIdPath,
} from '../schemas/leaderboard-schemas.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';

export function leaderboardRoutes(leaderboard: Leaderboard | null): Router<GatewayState> {
  const router = exactRouter('/v2');

  router.get('/leaderboard', async (ctx) => {
    const query = parseOrThrow(leaderboardQuery, ctx.query);
    if (!leaderboard) throw noLeaderboard();
    reply(ctx, 200, 'Leaderboard', leaderboardPage, await leaderboard.page(query));
  });

  router.get('/leaderboard/summary', async (ctx) => {
    if (!leaderboard) throw noLeaderboard();
    reply(ctx, 200, 'Leaderboard summary', leaderboardSummary, await leaderboard.summary());
  });

  router.get('/leaderboard/rank/:makerId', async (ctx) => {
    const { makerId } = parseOrThrow(makerIdPath, ctx.params);
    const { window } = parseOrThrow(leaderboardRankQuery, ctx.query);
    if (!leaderboard) throw noLeaderboard();
    reply(ctx, 200, 'Maker rank', leaderboardRank, await leaderboard.rank(makerId, window));
  });

  router.get('/leaderboard/maker/:makerId', async (ctx) => {
    const { makerId } = parseOrThrow(makerIdPath, ctx.params);
    if (!leaderboard) throw noLeaderboard();
    reply(ctx, 200, 'Maker detail', leaderboardMakerDetail, await leaderboard.detail(makerId));
  });

  return router;
}
