/**
 * machines/: the XState v5 machines and the domain rules they use (money, fees,
 * amounts, ids). Pure: no I/O, no clock, no randomness except through inputs.
 * The runtime in actors/ drives the machines through `transition()`. The relayer's
 * transaction and wallet are here, beside orders, payments, webhooks and makers' deposits.
 */
export * from './money.js';
export * from './id-hash.js';
export * from './canonical-json.js';
export * from './order/index.js';
export * from './payment/index.js';
export * from './catalog/index.js';
export * from './transaction/index.js';
export * from './wallet/index.js';
export * from './webhook/index.js';
export * from './deposit/index.js';
