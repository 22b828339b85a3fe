/**
 * machines/order: the checkout order of document 1. Its machine, the creation input
 * and context, what creating one asks of the account and where its USDC goes, the
 * settlement rules, and the pure projections to the API's CheckoutOrder and to the
 * hosted read's extra fields.
 */
export * from './order-types.js';
export * from './order-machine.js';
export * from './settlement.js';
export * from './checkout-order.js';
export * from './hosted-fields.js';
export * from './open-amount.js';
export * from './create-rules.js';
export * from './order-amount.js';
export * from './destination.js';
export * from './order-payments.js';
