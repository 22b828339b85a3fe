/**
 * The chains a maker's wallet is known on: the EVM chains of the catalog, and anvil's
 * chain, which stands in for Base wherever a node runs the local chain (as it does for
 * payments, deploy/payments.ts). A sign-in may name any of them; the transaction history
 * calls the chain the node's indexer follows by its readable key.
 */
import { chainById, CHAINS } from '../../machines/catalog/index.js';

/** anvil's own chain id, the local chain's. */
export const LOCAL_CHAIN_ID = 31337;

/**
 * The chain ids an EIP-4361 message may name: an EOA's signature is the same on each, so
 * this only keeps out chains nothing here knows. The local chain's id counts only on a node
 * that runs one.
 */
export function signInChainIds(localChainId: number | null): readonly number[] {
  return [...CHAINS.filter((chain) => chain.kind === 'evm').map((chain) => Number(chain.id)), ...(localChainId === null ? [] : [localChainId])];
}

/** `base` for Base (and the local chain), the catalog's name in lower case; a chain outside the catalog by its decimal id. */
export function chainKeyOf(chainId: number): string {
  if (chainId === LOCAL_CHAIN_ID) return 'base';
  return chainById(String(chainId))?.name.toLowerCase() ?? String(chainId);
}
