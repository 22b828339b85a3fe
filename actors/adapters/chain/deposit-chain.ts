/**
 * What an atomic deposit creation needs to read of the chain; the relayer does the sending.
 * The node implements it over the protocol's contracts (viem-deposit-chain.ts).
 */
import type { Hex, ProtocolTargets } from '../../../machines/index.js';

export interface DepositChain {
  readonly targets: ProtocolTargets & {
    /** The code embedded wallets delegate to (EIP-7702) so the relayer can submit their batches. */
    batchExecutor: Hex;
  };
  /** Deposits the escrow has created, counting the node's pending pool: the last id given out. */
  depositCount(): Promise<bigint>;
  /** Who holds deposit `depositId`, or null when the escrow has none by that id. */
  depositorOf(depositId: bigint): Promise<Hex | null>;
  /** Whether the account's code is a delegation to the batch executor already. */
  delegatesToExecutor(account: Hex): Promise<boolean>;
  /** The account's nonce, counting the pending pool: what its delegation must be signed at. */
  accountNonce(account: Hex): Promise<number>;
  /** The latest block's timestamp, in seconds: a batch's deadline is counted in chain time. */
  latestBlockTime(): Promise<bigint>;
  /** The escrow's dust threshold: a rest at or below it, with nothing locked, is swept when a payment leaves it. */
  dustThreshold(): Promise<bigint>;
}
