/**
 * machines/catalog: the one list of chains and tokens an order can be delivered in,
 * and the address formats of their kinds of chain. The create rules check a request
 * against it (machines/order/destination.ts), the gateway's schemas and the request
 * fingerprint use its address formats, and the API documentation lists its chains.
 *
 * To add a chain: add an entry to CHAINS in chains.ts with its id as Peer's chain
 * list gives it, its kind and its tokens (address and decimals from the token issuer's
 * own list), once settlement can deliver there. A new kind of chain (neither EVM nor
 * Solana) also needs its address format in address-formats.ts. Pure data and pure
 * functions, like the rest of machines/.
 */
export { BASE_CHAIN_ID, chainById, CHAINS, describeChains, SOLANA_CHAIN_ID } from './chains.js';
export type { CatalogChain, CatalogToken, ChainKind } from './chains.js';
export { ADDRESS_FORMATS, isEvmAddress, isSolanaAddress } from './address-formats.js';
export type { AddressFormat } from './address-formats.js';
export { describeTokens, findToken } from './tokens.js';
