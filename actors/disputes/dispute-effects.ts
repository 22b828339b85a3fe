/**
 * The dispute kind's effect: the stake claim of an escalated, protected dispute. The
 * claim is idempotent by disputeId on the stake's side, and the machine queues it once
 * (on the one turn that leaves OPEN for ESCALATED), so a redelivered timer or a re-run
 * effect never compensates twice. The transaction comes back to the actor as STAKE_CLAIMED.
 */
import type { Hex } from 'viem';
import type { StakeClaimParams } from '../../machines/dispute/index.js';
import type { EffectContext } from '../runtime/actor-kind.js';
import type { StakeCompensation } from '../chain/stake-compensation.js';

export function disputeEffects(stake: StakeCompensation | null) {
  return {
    claimStake: async (params: StakeClaimParams, context: EffectContext) => {
      if (!stake) {
        context.logger.warn({ disputeId: params.disputeId }, 'an escalated dispute had dispute protection, but this node has no stake claims wired');
        return;
      }
      const { transactionHash } = await stake.compensate({
        intentHash: params.intentHash as Hex,
        disputeId: params.disputeId,
        amountUsdc: BigInt(params.amountUsdc),
      });
      await context.askAt(
        context.actor,
        { type: 'STAKE_CLAIMED', transactionHash, at: new Date(await context.actorNow()).toISOString() },
        { messageId: `${context.effectId}:claimed` },
      );
    },
  };
}
