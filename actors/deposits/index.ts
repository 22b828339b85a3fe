/**
 * actors/deposits: what a maker's atomic deposit creation needs besides its machine: the
 * reservation of the next deposit id and the effects that submit and check the batch. The
 * wallet provider that signs for the maker's embedded wallet and the chain it reads are
 * ports in actors/adapters/.
 */
export * from '../adapters/chain/deposit-chain.js';
export * from './deposit-effects.js';
export * from './deposit-ids.js';
export * from '../adapters/wallet-provider/embedded-wallets.js';
