/**
 * actors/relayer: how the node sends its own transactions (signalIntent, fulfillIntent,
 * cancelIntent, later payouts' listings). The `transaction` and `wallet` actors do the
 * work (machines/transaction, machines/wallet); this folder holds their effects and the
 * keys they sign with; the chain they talk to is actors/adapters/chain/.
 */
export type { BroadcastResult, ChainCall, ChainReceipt, RelayerChain, Revert, UnsignedTransaction } from '../adapters/chain/relayer-chain.js';
export { transactionEffects } from './transaction-effects.js';
export { describeRevert, isRevert, revertDataOf } from './revert-reason.js';
export { privateKeysProblem, relayerAccounts } from './relayer-keys.js';
export { Relayer } from './relayer.js';
export { reconcileNonces } from './nonce-reconciler.js';
export type { NonceReconciliation } from './nonce-reconciler.js';
export { relayerWalletReadings } from './relayer-health.js';
