/** What orderbook-operations.ts names of the orderbook's queries (machines/market/orderbook-query.ts), until its import line points there. */
export { DEFAULT_DIRECTION, type OrderbookQuery } from '../../machines/market/orderbook-query.js';
