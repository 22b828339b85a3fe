/**
 * The node's maker leaderboard and deposit bundles (document 3): the intent ledger following
 * the indexer's facts beside the liquidity book, the leaderboard over both, and the bundles
 * over the indexer and the ledger, reported under the chain id the orderbook reports (Base for
 * a local chain standing in for it).
 */
import type { Logger } from 'pino';
import type { Clock, Store } from '../actors/index.js';
import { DepositFacts, IntentLedger, type LiquidityBook } from '../actors/market/index.js';
import type { RateSource } from '../actors/adapters/rates/rate-source.js';
import type { ActorSystem } from '../actors/runtime/actor-system.js';
import { BUNDLE_CACHE_MS, DepositBundles } from '../gateway/market/deposit-bundle.js';
import { LEADERBOARD_CACHE_MS, Leaderboard } from '../gateway/market/leaderboard.js';
import { currencyOfHash } from '../machines/market/market-names.js';
import type { IndexerServiceClient } from '../proto/gen/peer/indexer/v1/indexer.js';

export interface LeaderboardSideOptions {
  system: ActorSystem;
  store: Store;
  client: IndexerServiceClient;
  liquidity: LiquidityBook;
  rates: RateSource;
  escrow: string;
  /** As the orderbook reports its deposits. */
  chainId: number;
  clock: Clock;
  logger: Logger;
}

export interface LeaderboardSide {
  ledger: IntentLedger;
  leaderboard: Leaderboard;
  bundles: DepositBundles;
}

export async function leaderboardOf(options: LeaderboardSideOptions): Promise<LeaderboardSide> {
  const { system, store, client, liquidity, rates, escrow, logger } = options;
  const ledger = new IntentLedger({
    system,
    store,
    client,
    logger: logger.child({ component: 'intent-ledger' }),
    escrow,
    deposits: liquidity,
    rates,
    currencyOf: currencyOfHash,
  });
  await ledger.start();
  const leaderboard = new Leaderboard(
    { ledger, liquidity, now: () => options.clock.now(), logger: logger.child({ component: 'leaderboard' }) },
    { chainId: options.chainId, escrow, cacheMs: LEADERBOARD_CACHE_MS },
  );
  const bundles = new DepositBundles(
    { deposits: new DepositFacts(client, escrow), ledger, now: () => options.clock.now(), logger: logger.child({ component: 'deposit-bundles' }) },
    { chainId: options.chainId, escrow, cacheMs: BUNDLE_CACHE_MS },
  );
  return { ledger, leaderboard, bundles };
}
