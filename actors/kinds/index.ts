/** actors/kinds: one module per actor kind, binding a machine to its view, refusals and effects: merchants, orders, payments, makers, makers' deposits, the relayer's transaction and wallet, and sandbox test clocks. */
export * from './merchant-kind.js';
export * from './order-kind.js';
export * from './transaction-kind.js';
export * from './wallet-kind.js';
export * from './payment-kind.js';
export * from './maker-record-kind.js';
export * from './deposit-kind.js';
export * from './test-clock-kind.js';
