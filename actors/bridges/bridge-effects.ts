/**
 * The effects of the bridge kind (machines/bridge): each asks the rail of the bridge's
 * environment and reports what it found to the bridge, stamped with the attempt, so a report
 * of an attempt the bridge has moved past changes nothing. A quote the rail does not answer (an
 * outage) throws, and the runtime runs the effect again under its retry policy. A send or a
 * status the rail does not answer, or still working, reports nothing: the bridge's poll asks
 * again (throwing there would hold the outbox, and the polls would queue up behind it).
 */
import type { Environment } from '../../machines/merchant/index.js';
import type { BridgeEvent, CheckBridgeParams, QuoteBridgeParams, RefundBridgeParams, SendBridgeParams } from '../../machines/bridge/index.js';
import type { EffectContext } from '../runtime/actor-kind.js';
import { reportToSelf } from '../runtime/effect-report.js';
import { BridgeRefused, type BridgeRail } from './bridge-rail.js';

/** The rail of each environment; null where this node bridges nothing (its bridges wait, and are reported). */
export interface BridgeRails {
  SANDBOX: BridgeRail | null;
  LIVE: BridgeRail | null;
}

/** The relayer's transaction id of a try's send (actor ids are letters, digits, `_` and `-`). */
function bridgeSendId(bridgeId: string, attempt: number): string {
  return `bridge-send-${bridgeId}-${attempt}`;
}

function bridgeRefundId(bridgeId: string): string {
  return `bridge-refund-${bridgeId}`;
}

/** Runs `step`, logging instead of throwing when the rail does not answer: the next poll asks again. */
async function polled(context: EffectContext, what: string, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (error) {
    context.logger.warn({ err: error, actor: context.actor }, `the bridge rail did not answer ${what}; the next poll asks again`);
  }
}

export function bridgeEffects(rails: BridgeRails) {
  const railOf = (environment: Environment, context: EffectContext): BridgeRail => {
    const rail = rails[environment];
    if (!rail) {
      context.logger.error({ actor: context.actor, environment }, 'this node has no bridge rail for the environment; the bridge waits');
      throw new Error(`no bridge rail for ${environment} bridges on this node`);
    }
    return rail;
  };
  const at = async (context: EffectContext) => new Date(await context.actorNow()).toISOString();
  const report = (context: EffectContext, event: BridgeEvent) => reportToSelf<BridgeEvent>(context, event);

  return {
    async quoteBridge(params: QuoteBridgeParams, context: EffectContext) {
      const rail = railOf(params.environment, context);
      try {
        const quote = await rail.quote({ ...params, usdcAmount: BigInt(params.usdcAmount) });
        await report(context, { type: 'BRIDGE_QUOTED', attempt: params.attempt, ...quote, at: await at(context) });
      } catch (error) {
        if (!(error instanceof BridgeRefused)) throw error;
        await report(context, { type: 'BRIDGE_ATTEMPT_FAILED', attempt: params.attempt, reason: error.message, returnedUsdc: null, at: await at(context) });
      }
    },
    async sendBridge(params: SendBridgeParams, context: EffectContext) {
      const rail = railOf(params.environment, context);
      await polled(context, 'the send', async () => {
        const sent = await rail.send({
          sendId: bridgeSendId(params.bridgeId, params.attempt),
          to: params.depositAddress,
          usdcAmount: BigInt(params.usdcAmount),
        });
        if (sent.status === 'mined')
          await report(context, { type: 'BRIDGE_SENT', attempt: params.attempt, sourceTxHash: sent.transactionHash, at: await at(context) });
        // A send that reverted left the USDC in the bridge wallet: the attempt failed, nothing is lost.
        if (sent.status === 'failed')
          await report(context, { type: 'BRIDGE_ATTEMPT_FAILED', attempt: params.attempt, reason: sent.reason, returnedUsdc: null, at: await at(context) });
      });
    },
    async checkBridge(params: CheckBridgeParams, context: EffectContext) {
      const rail = railOf(params.environment, context);
      await polled(context, 'where the request stands', async () => {
        const state = await rail.status(params.requestId);
        if (state.status === 'delivered')
          await report(context, {
            type: 'BRIDGE_DELIVERED',
            attempt: params.attempt,
            deliveredAmount: state.deliveredAmount,
            destinationTxHash: state.destinationTransactionHash,
            at: await at(context),
          });
        if (state.status === 'refunded')
          await report(context, {
            type: 'BRIDGE_ATTEMPT_FAILED',
            attempt: params.attempt,
            reason: state.reason,
            returnedUsdc: state.returnedUsdc,
            at: await at(context),
          });
      });
    },
    async refundBridge(params: RefundBridgeParams, context: EffectContext) {
      const rail = railOf(params.environment, context);
      await polled(context, 'the refund', async () => {
        const sent = await rail.send({ sendId: bridgeRefundId(params.bridgeId), to: params.to, usdcAmount: BigInt(params.usdcAmount) });
        if (sent.status === 'mined') await report(context, { type: 'BRIDGE_REFUNDED', txHash: sent.transactionHash, at: await at(context) });
        // The relayer answers the same ended transaction to every later ask: nothing more is sent without an operator.
        if (sent.status === 'failed')
          context.logger.error({ actor: context.actor, reason: sent.reason }, 'the refund of a failed bridge did not go through; an operator must send it');
      });
    },
  };
}
