/**
 * What the relayer needs of a chain, as one interface: the viem client over JSON-RPC
 * in production and on anvil, and whatever a test puts in its place. Each call is one
 * question to the node; the transaction actor's effects decide what the answers mean.
 */
import type { ChainCall, Fees, Hex } from '../../../machines/transaction/index.js';

export type { ChainCall };

export interface UnsignedTransaction extends ChainCall, Fees {
  nonce: bigint;
  gas: bigint;
}

/** A revert, decoded against the contracts the relayer calls: `IntentNotFound(0x…)`, `Error("…")`, `Panic(17)`. */
export interface Revert {
  reason: string;
  data: Hex | null;
}

export interface ChainReceipt {
  hash: Hex;
  succeeded: boolean;
  blockNumber: bigint;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
}

/** What a node said to signed bytes: taken, already holding them, nonce spent, or not paying enough to replace. */
export type BroadcastResult = 'SENT' | 'ALREADY_KNOWN' | 'NONCE_TOO_LOW' | 'UNDERPRICED';

export interface RelayerChain {
  readonly chainId: number;
  /** The addresses of the keys this relayer signs with. */
  readonly wallets: readonly Hex[];
  /** Gas for the call with headroom, or the revert the call meets now. */
  estimateGas(call: ChainCall): Promise<{ gasLimit: bigint } | { revert: Revert }>;
  /** What the network asks per gas now. */
  fees(): Promise<Fees>;
  /** The address's nonce: `latest` counts mined transactions, `pending` the node's pool too. */
  nonce(address: Hex, tag: 'latest' | 'pending'): Promise<bigint>;
  /** Signs with the wallet's key and returns the raw bytes; deterministic (RFC 6979), so the same transaction signs to the same bytes. */
  sign(transaction: UnsignedTransaction): Promise<Hex>;
  broadcast(raw: Hex): Promise<BroadcastResult>;
  receipt(hash: Hex): Promise<ChainReceipt | null>;
  blockNumber(): Promise<bigint>;
  /** Why a mined transaction reverted, as far as the node can say. */
  revertOf(receipt: ChainReceipt, call: ChainCall): Promise<Revert>;
}
