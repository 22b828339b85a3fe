/** Document 3's deposit bundle (no authentication): GET /v2/deposits/:depositId/bundle (deposit-bundle.ts; docs/deposit-bundle.md). */
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { noDepositBundles, type DepositBundles } from './deposit-bundle.js';
import { depositBundle, depositBundlePath, depositBundleQuery } from './deposit-bundle-schemas.js';

export interface DepositBundleDependencies {
  /** Null on a node that reads no chain. */
  depositBundles: DepositBundles | null;
}

const getDepositBundleOperation = defineOperation({
  method: 'get',
  path: '/v2/deposits/:depositId/bundle',
  operationId: 'getDepositBundle',
  tags: ['Market'],
  summary: 'A deposit with its intents, fund events, profit and daily snapshots',
  description:
    'The deposit as the indexer folds its standing facts, its intents with what each earned, its on-chain fund events, every movement of its USDC, the profit after each fulfilment and its state at the end of each recent day. A reading is kept for 10 seconds; `forceRefresh=true` reads the indexer again.',
  guard: 'none',
  request: { path: depositBundlePath, query: depositBundleQuery },
  answers: standardAnswers(
    {
      '200': success(200, depositBundle, 'The bundle'),
      '400': invalid('the deposit id or the query'),
      '404': failure(404, [{ code: 'DEPOSIT_NOT_FOUND', when: 'The escrow has no such deposit, or escrowAddress is not the escrow this node reads' }]),
    },
    { unavailable: [{ code: 'DEPOSIT_BUNDLE_UNAVAILABLE', when: 'The node reads no chain, or the indexer cannot be asked now' }] },
  ),

  handle:
    ({ depositBundles }: DepositBundleDependencies) =>
    async (ctx, { path, query }) => {
      if (!depositBundles) throw noDepositBundles();
      reply(ctx, 200, 'Deposit bundle', depositBundle, await depositBundles.bundle(path.depositId, query));
    },
});

export function depositBundleOperations(): Operation<DepositBundleDependencies>[] {
  return [getDepositBundleOperation];
}
