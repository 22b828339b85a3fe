/** The chain the indexer reads and the contracts on it whose logs become facts. */
import type { Address } from 'viem';

export interface ChainContracts {
  chainId: number;
  usdc: Address;
  escrow: Address;
  orchestrator: Address;
}
