/** A sending wallet: one per key and chain, giving out its nonces in order. */

/** An actor's address, as machines name the actors they tell. */
export interface MachineAddress {
  kind: string;
  id: string;
}

export interface WalletInput {
  id: string;
  chainId: number;
  address: `0x${string}`;
  /** The chain's nonce for the address when the wallet was opened. */
  nextNonce: bigint;
  at: number;
}

export interface WalletContext extends WalletInput {
  /** Nonces given out since the wallet was opened. */
  assigned: number;
  updatedAt: number;
}

export type WalletEvent =
  | ({ type: 'OPEN' } & Omit<WalletInput, 'id'>)
  /**
   * `chainNonce` is the chain's pending nonce for the address, read just before: a key
   * also used outside the relayer moves the wallet past the nonces it spent.
   */
  | { type: 'ASSIGN_NONCE'; transactionId: string; chainNonce: bigint; at: number }
  /**
   * The relayer's look at the chain when a node starts: `chainNonce` is the chain's pending
   * nonce, `heldNonces` those of the wallet's transactions still under way, read while the
   * wallet's next nonce was `seenNextNonce`.
   */
  | { type: 'RECONCILE'; chainNonce: bigint; heldNonces: bigint[]; seenNextNonce: bigint; at: number };

/** The wallet's id for a key on a chain: `<chainId>_<address in lower case>`. */
export function walletId(chainId: number, address: string): string {
  return `${chainId}_${address.toLowerCase()}`;
}
