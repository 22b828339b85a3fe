/**
 * actors/adapters/chain: the node's side of the EVM chain. The ports the actors see (RelayerChain
 * for sending, IntentPort for the orchestrator's intent calls, DepositChain for the escrow's
 * reads) and their viem implementations. The local stand-in is the chain itself: a local anvil
 * that deploy/chain.ts starts.
 */
export type { BroadcastResult, ChainCall, ChainReceipt, RelayerChain, Revert, UnsignedTransaction } from './relayer-chain.js';
export type { ChainCallData, ExtensionReadiness, IntentExtensionCode, IntentOnChain, IntentPort, IntentTerms, SignalledIntent } from './intent-port.js';
export { extensionRefusal, MAX_INTENT_LIFETIME_SECONDS } from './intent-extension.js';
export type { DepositChain } from './deposit-chain.js';
export { ViemRelayerChain } from './viem-relayer-chain.js';
export type { ViemRelayerChainOptions } from './viem-relayer-chain.js';
export { ViemIntents } from './viem-intents.js';
export { LocalExpiries, StoredExpiries, approvalTerms, type ExpiryClaims } from './gating-expiries.js';
export type { ViemIntentsOptions } from './viem-intents.js';
export { ViemDepositChain } from './viem-deposit-chain.js';
