/**
 * actors/adapters/chain: the node's side of the EVM chain. The ports the actors see (RelayerChain
 * for sending, IntentPort for the orchestrator's intent calls, DepositChain for the escrow's
 * reads) and their viem implementations. The local stand-in is the chain itself: a local anvil
 * that deploy/chain.ts starts.
 */
export * from './relayer-chain.js';
export * from './intent-port.js';
export * from './deposit-chain.js';
export * from './viem-relayer-chain.js';
export * from './viem-intents.js';
export * from './viem-deposit-chain.js';
