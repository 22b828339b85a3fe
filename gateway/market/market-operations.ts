/** The market area of document 3 (no authentication): the orderbook, the maker leaderboard and the deposit bundle. */
import type { Operation } from '../operations/operation.js';
import { type DepositBundleDependencies, depositBundleOperations } from './deposit-bundle-operations.js';
import { type LeaderboardDependencies, leaderboardOperations } from './leaderboard-operations.js';
import { type OrderbookDependencies, orderbookOperations } from './orderbook-operations.js';

export type MarketDependencies = OrderbookDependencies & LeaderboardDependencies & DepositBundleDependencies;

export function marketOperations(): Operation<MarketDependencies>[] {
  return [...orderbookOperations(), ...leaderboardOperations(), ...depositBundleOperations()];
}
