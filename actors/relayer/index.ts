/**
 * actors/relayer: how the node sends its own transactions (signalIntent, fulfillIntent,
 * cancelIntent, later payouts' listings). The `transaction` and `wallet` actors do the
 * work (machines/transaction, machines/wallet); this folder holds their effects and the
 * keys they sign with; the chain they talk to is actors/adapters/chain/.
 */
export * from '../adapters/chain/relayer-chain.js';
export * from './transaction-effects.js';
export * from './revert-reason.js';
export * from './relayer-keys.js';
export * from './relayer.js';
export * from './nonce-reconciler.js';
