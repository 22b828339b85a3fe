/**
 * indexer/chain/: the local chain that stands in for Base in the embedded node and the tests.
 * Our contracts (a USDC-like token, an escrow, an orchestrator and an attestation verifier whose
 * events match Base's byte for byte) live as Solidity in contracts/ and as generated TypeScript in
 * artifacts/ (`npm run contracts`); anvil from npm runs them on loopback, deploy.ts puts them there.
 * compile.ts is left out on purpose: it loads the 9 MB solc compiler.
 */
export * from './anvil.js';
export * from './artifacts/index.js';
export * from './deploy.js';
export * from './dev-accounts.js';
export * from './errors.js';
export * from './gating.js';
export * from './kept-chain.js';
export * from './local-chain.js';
export * from './rpc.js';
