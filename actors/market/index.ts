/**
 * actors/market: the makers' side of the market as the node reads it. The liquidity book
 * keeps the escrow's deposits, fed by the indexer's facts, and answers the payment flow's
 * quotes: the best-priced deposit that can take an intent for a method, currency and amount,
 * and the payee directory says whom each deposit is paid to. The intent ledger keeps every
 * intent on those deposits, with what its maker earned on it, for the leaderboard. The
 * payable offers are the book's deposits a live attempt is quoted on, and a recipient's
 * rating counts how the attempts paid to it ended. The maker records are read by payee for
 * the orderbook's rows.
 */
export * from './deposit-facts.js';
export * from './deposit-offers.js';
export * from './intent-ledger.js';
export * from './intent-records.js';
export * from './liquidity-book.js';
export * from './payee-directory.js';
export * from './payable-offers.js';
export * from './recipient-rating.js';
export * from './maker-records.js';
export * from './orderbook-snapshot.js';
