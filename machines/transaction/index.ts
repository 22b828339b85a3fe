/**
 * machines/transaction: a chain transaction the relayer sends for an owner (a payment,
 * later a payout), from the call to its outcome, and the fee rules of its attempts.
 */
export * from './transaction-types.js';
export * from './transaction-machine.js';
export * from './fees.js';
