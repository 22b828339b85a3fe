/**
 * actors/market: the makers' side of the market as the node reads it. The liquidity book
 * keeps the escrow's deposits, fed by the indexer's facts, and answers the payment flow's
 * quotes: the best-priced deposit that can take an intent for a method, currency and amount,
 * and the payee directory says whom each deposit is paid to. The intent ledger keeps every
 * intent on those deposits, with what its maker earned on it, for the leaderboard. The
 * payable offers are the book's deposits a live attempt is quoted on, and a recipient's
 * rating counts how the attempts paid to it ended. An orderbook snapshot is read from the
 * book's open deposits, the sellers' credentials, the maker records by payee and the rates.
 */
export { depositFactOf, DepositFacts } from './deposit-facts.js';
export type { DepositFact, DepositFactEvent, DepositReading } from './deposit-facts.js';
export { bookDeposit, checkOfferQuery, depositDocument, offerKey, priceBand, rankOffers, takeableRanges } from './deposit-offers.js';
export type { BookDeposit, DepositOffer, LiquidityDepositDoc, OfferQuery, PriceBand, TakeableRange } from './deposit-offers.js';
export { INTENT_LEDGER_ROLE, IntentLedger } from './intent-ledger.js';
export type { IntentLedgerOptions } from './intent-ledger.js';
export { intentRecord, realizedProfitUsd, standingFacts, standingFulfilment } from './intent-records.js';
export type { IntentRecordDoc, IntentStatusName, RecordInputs, StandingFulfilment } from './intent-records.js';
export { LIQUIDITY_BOOK_ROLE, LiquidityBook } from './liquidity-book.js';
export type { LiquidityBookOptions } from './liquidity-book.js';
export { PayeeDirectory } from './payee-directory.js';
export type { Payee } from './payee-directory.js';
export { payableOffers } from './payable-offers.js';
export type { PayableOffer, PayableOfferQuery } from './payable-offers.js';
export { recipientRating } from './recipient-rating.js';
export { makerRecordsByPayee } from './maker-records.js';
export { readOrderbookSnapshot } from './orderbook-snapshot.js';
export type { OrderbookScope, OrderbookSources } from './orderbook-snapshot.js';
