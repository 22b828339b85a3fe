/** Document 3's maker leaderboard operations (docs/leaderboard.md). */
import {
  leaderboardMakerDetail,
  leaderboardPage,
  leaderboardQuery,
  leaderboardRank,
  leaderboardRankQuery,
  leaderboardSummary,
  makerIdPath,
} from '../schemas/leaderboard-schemas.js';
import { failure, invalid, standardAnswers, success, type Outcome } from './answers.js';
import { NO_AUTH } from './security.js';

const tags = ['Market'];
const UNAVAILABLE: Outcome[] = [{ code: 'LEADERBOARD_UNAVAILABLE', when: 'The node reads no chain, or the makers’ deposits and intents cannot be read now' }];
const MAKER_NOT_FOUND = failure(404, [{ code: 'MAKER_NOT_FOUND', when: 'No maker of that id has a deposit on this node’s chain (responseObject null)' }]);
const SNAPSHOT = 'Answered from a snapshot of every maker taken at `generatedAt`, kept for 15 seconds.';

export function leaderboardPaths() {
  return {
    '/v2/leaderboard': {
      get: {
        operationId: 'getLeaderboard',
        tags,
        summary: 'Makers ranked by realised profit, filled volume or liquidity',
        description: `One page of makers sorted by the metric, each with its descending rank by it. When \`window\` is not lifetime, totalAmountTaken and realizedProfitUsd count that window's fulfilments only; liquidity, success rate and counts stay lifetime. ${SNAPSHOT}`,
        security: NO_AUTH,
        requestParams: { query: leaderboardQuery },
        responses: standardAnswers({ '200': success(200, leaderboardPage, 'The page of makers'), '400': invalid('the query') }, { unavailable: UNAVAILABLE }),
      },
    },
    '/v2/leaderboard/summary': {
      get: {
        operationId: 'getLeaderboardSummary',
        tags,
        summary: 'Totals over every maker',
        description: `Lifetime realised profit, filled volume, gross deposited, deposit and intent counts, and the average success rate of the makers with an intent. ${SNAPSHOT}`,
        security: NO_AUTH,
        responses: standardAnswers({ '200': success(200, leaderboardSummary, 'The totals') }, { unavailable: UNAVAILABLE }),
      },
    },
    '/v2/leaderboard/rank/{makerId}': {
      get: {
        operationId: 'getLeaderboardRank',
        tags,
        summary: 'A maker’s ranks by profit, volume and liquidity',
        description: `Descending ranks (1 is top) in the window, the number of makers ranked and the maker's row. ${SNAPSHOT}`,
        security: NO_AUTH,
        requestParams: { path: makerIdPath, query: leaderboardRankQuery },
        responses: standardAnswers(
          { '200': success(200, leaderboardRank, 'The ranks'), '400': invalid('the maker id or the query'), '404': MAKER_NOT_FOUND },
          { unavailable: UNAVAILABLE },
        ),
      },
    },
    '/v2/leaderboard/maker/{makerId}': {
      get: {
        operationId: 'getLeaderboardMaker',
        tags,
        summary: 'A maker’s lifetime statistics in detail',
        description: `Its row and ranks, its deposits, breakdowns by platform and currency, and a profit snapshot for each of the last 30 days. ${SNAPSHOT}`,
        security: NO_AUTH,
        requestParams: { path: makerIdPath },
        responses: standardAnswers(
          { '200': success(200, leaderboardMakerDetail, 'The maker'), '400': invalid('the maker id'), '404': MAKER_NOT_FOUND },
          { unavailable: UNAVAILABLE },
        ),
      },
    },
  };
}
