/**
 * The effects of the bridge kind (machines/bridge): each asks the rail of the bridge's
 * environment and reports what it found to the bridge, stamped with the attempt, so a report
 * of an attempt the bridge has moved past changes nothing. A rail that does not answer (an
 * outage) throws, and the runtime runs the effect again under its retry policy; a send or
 * the provider still working reports nothing, and the bridge's poll asks again.
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
      const sent = await railOf(params.environment, context).send({
        sendId: `bridge-send:${params.bridgeId}:${params.attempt}`,
        to: params.depositAddress,
        usdcAmount: BigInt(params.usdcAmount),
      });
      if (sent.status === 'mined')
        await report(context, { type: 'BRIDGE_SENT', attempt: params.attempt, sourceTxHash: sent.transactionHash, at: await at(context) });
      // A send that reverted left the USDC in the bridge wallet: the attempt failed, nothing is lost.
      if (sent.status === 'failed')
        await report(context, { type: 'BRIDGE_ATTEMPT_FAILED', attempt: params.attempt, reason: sent.reason, returnedUsdc: null, at: await at(context) });
    },
    async checkBridge(params: CheckBridgeParams, context: EffectContext) {
      const state = await railOf(params.environment, context).status(params.requestId);
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
    },
    async refundBridge(params: RefundBridgeParams, context: EffectContext) {
      const sent = await railOf(params.environment, context).send({
        sendId: `bridge-refund:${params.bridgeId}`,
        to: params.to,
        usdcAmount: BigInt(params.usdcAmount),
      });
      if (sent.status === 'mined') await report(context, { type: 'BRIDGE_REFUNDED', txHash: sent.transactionHash, at: await at(context) });
      if (sent.status === 'failed')
        context.logger.error({ actor: context.actor, reason: sent.reason }, 'the refund of a failed bridge reverted; the next poll sends it again');
    },
  };
}
