/** Document 3's deposit bundle operation (docs/deposit-bundle.md). */
import { depositBundle, depositBundlePath, depositBundleQuery } from '../schemas/deposit-bundle-schemas.js';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { NO_AUTH } from './security.js';

export function depositBundlePaths() {
  return {
    '/v2/deposits/{depositId}/bundle': {
      get: {
        operationId: 'getDepositBundle',
        tags: ['Market'],
        summary: 'A deposit with its intents, fund events, profit and daily snapshots',
        description:
          'The deposit as the indexer folds its standing facts, its intents with what each earned, its on-chain fund events, every movement of its USDC, the profit after each fulfilment and its state at the end of each recent day. A reading is kept for 10 seconds; `forceRefresh=true` reads the indexer again.',
        security: NO_AUTH,
        requestParams: { path: depositBundlePath, query: depositBundleQuery },
        responses: standardAnswers(
          {
            '200': success(200, depositBundle, 'The bundle'),
            '400': invalid('the deposit id or the query'),
            '404': failure(404, [{ code: 'DEPOSIT_NOT_FOUND', when: 'The escrow has no such deposit, or escrowAddress is not the escrow this node reads' }]),
          },
          { unavailable: [{ code: 'DEPOSIT_BUNDLE_UNAVAILABLE', when: 'The node reads no chain, or the indexer cannot be asked now' }] },
        ),
      },
    },
  };
}
