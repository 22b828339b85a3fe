/** viem's description of a chain known only by its JSON-RPC URL and id: anvil, or a node for Base. */
import { defineChain, type Chain } from 'viem';

/** Receipts on a loopback node are ready within milliseconds; viem's 4 s default would idle. */
export const LOOPBACK_POLLING_MS = 50;

export function rpcChain(rpcUrl: string, chainId: number): Chain {
  return defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}
