/** GET /v2/transaction-history/{chain}/{token}: the signed-in wallet's USDC transfers (bearer; docs/transaction-history.md). */
import { reply } from '../envelope.js';
import { walletOf } from '../middleware/bearer-auth.js';
import type { Budgets } from '../limits/index.js';
import { walletRateLimit } from '../middleware/rate-limit.js';
import { type Answers, failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { makerTokenRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { transactionHistory, transactionHistoryPath } from '../schemas/transaction-history-schemas.js';
import type { WalletHistory } from './wallet-history.js';

export interface TransactionHistoryDependencies {
  history: WalletHistory;
  /** The wallet's own limit, beside the client address's. */
  historyPerMinute: number;
  /** Where that limit is counted: the node's, or the cluster's store. */
  budgets: Budgets;
}

export function transactionHistoryOperations(): Operation<TransactionHistoryDependencies>[] {
  return [transactionHistoryOperation];
}

/** The history's own limit beside the address's: same answer, same headers. */
function walletLimited(answers: Answers): Answers {
  const standard = answers['429']!;
  return {
    ...answers,
    '429': {
      ...standard,
      ...failure(429, [
        {
          when: 'Too many requests from this client address, or for this wallet (TRANSACTION_HISTORY_PER_MINUTE a minute, default 30); retry after `x-retry-after` seconds',
        },
      ]),
      headers: standard.headers,
    } as Answers[string],
  };
}

const transactionHistoryOperation = defineOperation({
  method: 'get',
  path: '/v2/transaction-history/:chain/:token',
  operationId: 'getTransactionHistory',
  tags: ['Transaction history'],
  summary: 'The signed-in wallet’s confirmed USDC transfers',
  description:
    'Direct USDC transfers (ERC-20 Transfer events) from and to the wallet on the chain the service indexes, newest first, at most 1000. The first sign-in has the indexer read the wallet’s past transfers; until that backfill is done the older ones may be missing.',
  guard: 'makerToken',
  request: { path: transactionHistoryPath },
  before: (deps: TransactionHistoryDependencies) => [walletRateLimit({ perMinute: deps.historyPerMinute, budgets: deps.budgets })],
  answers: walletLimited(
    standardAnswers(
      {
        '200': success(200, transactionHistory, 'The transfers'),
        '400': invalid('chain or token is not a key or a symbol'),
        ...makerTokenRefusals,
        '404': failure(404, [
          { code: 'CHAIN_NOT_SUPPORTED', when: 'the service indexes another chain' },
          { code: 'TOKEN_NOT_SUPPORTED', when: 'the token is not usdc' },
        ]),
      },
      {
        unavailable: [
          { code: 'TRANSACTION_HISTORY_UNAVAILABLE', when: 'this node reads no chain' },
          { code: 'INDEXER_UNAVAILABLE', when: 'the chain indexer is not answering; retry after Retry-After' },
        ],
      },
    ),
  ),
  handle:
    (deps: TransactionHistoryDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Transaction history', transactionHistory, await deps.history.read(walletOf(ctx), path.chain, path.token));
    },
});
