/**
 * indexer/chain/: the local chain that stands in for Base in the embedded node and the tests.
 * Our contracts (a USDC-like token, stand-ins for other stablecoins, an escrow, an orchestrator
 * and an attestation verifier whose events match Base's byte for byte) live as Solidity in
 * contracts/ and as generated TypeScript in artifacts/ (`npm run contracts`); anvil from npm runs
 * them on loopback, deploy.ts puts them there.
 * compile.ts is left out on purpose: it loads the 9 MB solc compiler.
 */
export { ANVIL_DEFAULT_CHAIN_ID, anvilBinaryPath, startAnvil } from './anvil.js';
export type { Anvil, AnvilOptions } from './anvil.js';
export {
  batchExecutorAbi,
  batchExecutorBytecode,
  depositAssertionsAbi,
  depositAssertionsBytecode,
  escrowAbi,
  escrowBytecode,
  mockStablecoinAbi,
  mockStablecoinBytecode,
  mockUSDCAbi,
  mockUSDCBytecode,
  orchestratorAbi,
  orchestratorBytecode,
  unifiedPaymentVerifierAbi,
  unifiedPaymentVerifierBytecode,
} from './artifacts/index.js';
export { DEFAULT_INTENT_EXPIRATION_SECONDS, deployContracts, LOCAL_EXTENSION_FEE, LOCAL_EXTENSION_TOKEN_MINTED } from './deploy.js';
export type { ChainDeployment, DeployOptions } from './deploy.js';
export {
  anvilTestAccount,
  LOCAL_DEMO_MERCHANT_ACCOUNT_INDEX,
  LOCAL_DEPLOYER_INDEX,
  LOCAL_GATING_SERVICE_INDEX,
  LOCAL_INTENT_GUARDIAN_INDEX,
  LOCAL_RELAYER_INDEX,
  LOCAL_WITNESS_INDEX,
  localDemoMerchantAccount,
  localEmbeddedAccount,
  localPayoutServiceFeeAccount,
  localWalletRoot,
} from './dev-accounts.js';
export { protocolErrorsAbi } from './errors.js';
export { SIGNAL_INTENT_TYPES, signIntentGating } from './gating.js';
export type { GatedIntent } from './gating.js';
export { keepDeployment, keptChainFiles, KeptChainLostError, keptDeployment, keptDeploymentExists } from './kept-chain.js';
export type { KeptChainFiles } from './kept-chain.js';
export { startLocalChain } from './local-chain.js';
export type { LocalChain, LocalChainOptions } from './local-chain.js';
export { LOOPBACK_POLLING_MS, rpcChain } from './rpc.js';
