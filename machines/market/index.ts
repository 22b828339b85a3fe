/**
 * machines/market: the market's figures as pure functions of the records the actor layer
 * keeps (actors/market): a recipient's rating, the leaderboard's figures and a maker's
 * breakdowns, a deposit bundle's movements and snapshots, the orderbook's rows, and the
 * fields and names they are shown with. The figure files each name a ProfitSnapshot of their own, so callers of those
 * import the file itself.
 */
export type { DepositFact, DepositFactEvent, IntentRecordDoc, IntentStatusName, LiquidityDepositDoc } from './market-records.js';
export { NEW_RECIPIENT_RATING, ratingOf } from './recipient-rating.js';
export { DAY_SECONDS, depositIdOf, isoSeconds, signedUsdc, successRateBps, USDC_RATE_TO_CENTS, utcDate } from './market-fields.js';
export { currencyOfHash, ORDERBOOK_PLATFORMS, platformOfHash } from './market-names.js';
