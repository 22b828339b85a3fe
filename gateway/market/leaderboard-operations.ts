/**
 * Document 3's maker leaderboard (no authentication): GET /v2/leaderboard (a page of makers
 * sorted by profit, volume or liquidity), /v2/leaderboard/summary, /v2/leaderboard/rank/:makerId
 * and /v2/leaderboard/maker/:makerId, all answered from one snapshot (leaderboard.ts; docs/leaderboard.md).
 */
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success, type Outcome } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { noLeaderboard, type Leaderboard } from './leaderboard.js';
import {
  leaderboardMakerDetail,
  leaderboardPage,
  leaderboardQuery,
  leaderboardRank,
  leaderboardRankQuery,
  leaderboardSummary,
  makerIdPath,
} from './leaderboard-schemas.js';

export interface LeaderboardDependencies {
  /** Null on a node that reads no chain. */
  leaderboard: Leaderboard | null;
}

const tags = ['Market'];
const UNAVAILABLE: Outcome[] = [{ code: 'LEADERBOARD_UNAVAILABLE', when: 'The node reads no chain, or the makers’ deposits and intents cannot be read now' }];
const MAKER_NOT_FOUND = failure(404, [{ code: 'MAKER_NOT_FOUND', when: 'No maker of that id has a deposit on this node’s chain (responseObject null)' }]);
const SNAPSHOT = 'Answered from a snapshot of every maker taken at `generatedAt`, kept for 15 seconds.';

const getLeaderboardOperation = defineOperation({
  method: 'get',
  path: '/v2/leaderboard',
  operationId: 'getLeaderboard',
  tags,
  summary: 'Makers ranked by realised profit, filled volume or liquidity',
  description: `One page of makers sorted by the metric, each with its descending rank by it. When \`window\` is not lifetime, totalAmountTaken and realizedProfitUsd count that window's fulfilments only; liquidity, success rate and counts stay lifetime. ${SNAPSHOT}`,
  guard: 'none',
  request: { query: leaderboardQuery },
  answers: standardAnswers({ '200': success(200, leaderboardPage, 'The page of makers'), '400': invalid('the query') }, { unavailable: UNAVAILABLE }),

  handle:
    ({ leaderboard }: LeaderboardDependencies) =>
    async (ctx, { query }) => {
      if (!leaderboard) throw noLeaderboard();
      reply(ctx, 200, 'Leaderboard', leaderboardPage, await leaderboard.page(query));
    },
});

const getLeaderboardSummaryOperation = defineOperation({
  method: 'get',
  path: '/v2/leaderboard/summary',
  operationId: 'getLeaderboardSummary',
  tags,
  summary: 'Totals over every maker',
  description: `Lifetime realised profit, filled volume, gross deposited, deposit and intent counts, and the average success rate of the makers with an intent. ${SNAPSHOT}`,
  guard: 'none',
  answers: standardAnswers({ '200': success(200, leaderboardSummary, 'The totals') }, { unavailable: UNAVAILABLE }),

  handle:
    ({ leaderboard }: LeaderboardDependencies) =>
    async (ctx) => {
      if (!leaderboard) throw noLeaderboard();
      reply(ctx, 200, 'Leaderboard summary', leaderboardSummary, await leaderboard.summary());
    },
});

const getLeaderboardRankOperation = defineOperation({
  method: 'get',
  path: '/v2/leaderboard/rank/:makerId',
  operationId: 'getLeaderboardRank',
  tags,
  summary: 'A maker’s ranks by profit, volume and liquidity',
  description: `Descending ranks (1 is top) in the window, the number of makers ranked and the maker's row. ${SNAPSHOT}`,
  guard: 'none',
  request: { path: makerIdPath, query: leaderboardRankQuery },
  answers: standardAnswers(
    { '200': success(200, leaderboardRank, 'The ranks'), '400': invalid('the maker id or the query'), '404': MAKER_NOT_FOUND },
    { unavailable: UNAVAILABLE },
  ),

  handle:
    ({ leaderboard }: LeaderboardDependencies) =>
    async (ctx, { path, query }) => {
      if (!leaderboard) throw noLeaderboard();
      reply(ctx, 200, 'Maker rank', leaderboardRank, await leaderboard.rank(path.makerId, query.window));
    },
});

const getLeaderboardMakerOperation = defineOperation({
  method: 'get',
  path: '/v2/leaderboard/maker/:makerId',
  operationId: 'getLeaderboardMaker',
  tags,
  summary: 'A maker’s lifetime statistics in detail',
  description: `Its row and ranks, its deposits, breakdowns by platform and currency, and a profit snapshot for each of the last 30 days. ${SNAPSHOT}`,
  guard: 'none',
  request: { path: makerIdPath },
  answers: standardAnswers(
    { '200': success(200, leaderboardMakerDetail, 'The maker'), '400': invalid('the maker id'), '404': MAKER_NOT_FOUND },
    { unavailable: UNAVAILABLE },
  ),

  handle:
    ({ leaderboard }: LeaderboardDependencies) =>
    async (ctx, { path }) => {
      if (!leaderboard) throw noLeaderboard();
      reply(ctx, 200, 'Maker detail', leaderboardMakerDetail, await leaderboard.detail(path.makerId));
    },
});

export function leaderboardOperations(): Operation<LeaderboardDependencies>[] {
  return [getLeaderboardOperation, getLeaderboardSummaryOperation, getLeaderboardRankOperation, getLeaderboardMakerOperation];
}
