/**
 * actors/market: the makers' side of the market as the node reads it. The liquidity book
 * keeps the escrow's deposits, fed by the indexer's facts, and answers the payment flow's
 * quotes: the best-priced deposit that can take an intent for a method, currency and amount.
 */
export * from './deposit-offers.js';
export * from './liquidity-book.js';
