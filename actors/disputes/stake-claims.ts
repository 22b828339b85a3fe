/**
 * The maker's stake as a dispute sees it: what an escalated dispute over a deposit with
 * dispute protection asks to compensate the seller. Typed exactly as the chain side's
 * `StakeCompensation` (actors/chain/stake-compensation.ts, issue 41's chargeback work),
 * which implements it; a node without one wires none, and its escalated disputes stay
 * ESCALATED without a stake claim.
 */
import type { Hex } from 'viem';

export interface StakeClaims {
  /** Compensates the dispute from the stake behind the intent's deposit; idempotent by disputeId. */
  compensate(claim: { intentHash: Hex; disputeId: string; amountUsdc: bigint }): Promise<{ transactionHash: Hex }>;
}
