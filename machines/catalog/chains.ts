/**
 * The chains an order's USDC can be delivered to, each with the tokens it can be
 * delivered in. Ids and names follow Peer's public chain list (the `toToken` table of
 * zkp2p/docs, "Onramp Integration"): EVM chains by their EIP-155 id, Solana by
 * 792703809. Solana has no EIP-155 id; 792703809 is the number Relay, the bridge behind
 * Peer's cross-chain delivery, gives it, and Peer uses it as is. Document 1 writes every
 * chain id as a decimal string, so ids are strings here too.
 *
 * A chain or token is listed only once something can deliver to it: an order naming
 * anything else could never settle, so the create refuses it. Base is where every payment
 * settles; every other chain is delivered by a bridge through the conversion provider after
 * settlement (docs/bridges.md), so each of its tokens must be one the provider routes to
 * (machines/payout/destination-catalog.ts; a test holds it).
 */
export type ChainKind = 'evm' | 'solana';

/** How an order's USDC reaches the chain: settled there directly, or bridged from Base after settlement. */
export type ChainDelivery = 'SETTLEMENT' | 'BRIDGE';

export interface CatalogToken {
  symbol: string;
  /** The contract address on an EVM chain (EIP-55 checksummed), the mint on Solana. */
  address: string;
  decimals: number;
}

export interface CatalogChain {
  /** Decimal chain id. */
  id: string;
  name: string;
  /** Which address format the chain's wallets and tokens are written in (address-formats.ts). */
  kind: ChainKind;
  delivery: ChainDelivery;
  tokens: readonly CatalogToken[];
}

/** Where an order is delivered when the request names no chain. */
export const BASE_CHAIN_ID = '8453';
export const SOLANA_CHAIN_ID = '792703809';

/** Circle's native USDC, never a bridged variant: six decimals everywhere. */
const usdc = (address: string): CatalogToken => ({ symbol: 'USDC', address, decimals: 6 });

export const CHAINS: readonly CatalogChain[] = [
  { id: BASE_CHAIN_ID, name: 'Base', kind: 'evm', delivery: 'SETTLEMENT', tokens: [usdc('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')] },
  { id: '1', name: 'Ethereum', kind: 'evm', delivery: 'BRIDGE', tokens: [usdc('0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48')] },
  { id: '10', name: 'Optimism', kind: 'evm', delivery: 'BRIDGE', tokens: [usdc('0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85')] },
  { id: '137', name: 'Polygon', kind: 'evm', delivery: 'BRIDGE', tokens: [usdc('0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359')] },
  { id: '42161', name: 'Arbitrum', kind: 'evm', delivery: 'BRIDGE', tokens: [usdc('0xaf88d065e77c8cC2239327C5EDb3A432268e5831')] },
  { id: SOLANA_CHAIN_ID, name: 'Solana', kind: 'solana', delivery: 'BRIDGE', tokens: [usdc('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')] },
];

const BY_ID: ReadonlyMap<string, CatalogChain> = new Map(CHAINS.map((chain) => [chain.id, chain]));

export function chainById(id: string): CatalogChain | null {
  return BY_ID.get(id) ?? null;
}

/** `8453 (Base), 1 (Ethereum), …`: the supported ids as a message or a description lists them. */
export function describeChains(): string {
  return CHAINS.map((chain) => `${chain.id} (${chain.name})`).join(', ');
}
