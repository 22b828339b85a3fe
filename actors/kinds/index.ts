/** actors/kinds: one module per actor kind, binding a machine to its view, refusals and effects. The kinds: merchant, order, and the relayer's transaction and wallet. */
export * from './merchant-kind.js';
export * from './order-kind.js';
export * from './transaction-kind.js';
export * from './wallet-kind.js';
export * from './payment-kind.js';
export * from './maker-record-kind.js';
