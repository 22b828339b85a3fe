/**
 * actors/kinds: every actor kind, one module each, binding a machine to its view, refusals and effects:
 * merchants, orders, payments, makers, makers' deposits, the relayer's transaction and wallet, sandbox
 * test clocks, and (exported through their own folders) webhooks and deliveries, makers' sign-in and
 * referrals, wallet transfers and provider messages. The boundary test holds every defineKind( here.
 */
export * from './merchant-kind.js';
export * from './order-kind.js';
export * from './transaction-kind.js';
export * from './wallet-kind.js';
export * from './payment-kind.js';
export * from './maker-record-kind.js';
export * from './deposit-kind.js';
export * from './test-clock-kind.js';
