/**
 * actors/deposits: what a maker's atomic deposit creation needs besides its machine: the
 * wallet provider that signs for the maker's embedded wallet, the chain it reads, the
 * reservation of the next deposit id, and the effects that submit and check the batch.
 */
export * from './deposit-chain.js';
export * from './deposit-effects.js';
export * from './deposit-ids.js';
export * from './embedded-wallets.js';
