/**
 * machines/deposit: a maker's atomic deposit creation (document 3, atomic-create): the rules
 * its calldata must meet, the batch and signature built from it, and the machine that holds
 * the request from submission to a confirmed deposit.
 */
export * from './atomic-calls.js';
export * from './batch-signature.js';
export * from './deposit-types.js';
export * from './deposit-machine.js';
export * from './protocol-functions.js';
