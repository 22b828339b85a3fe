/**
 * Where a payout's bridge stands (docs/payout-checkout.md, "Crypto through the provider"): the
 * provider is asked at each poll of the bridging payout. A delivery is the provider's word (no
 * chain of the destination network is read); a refund is money coming back to the customer's
 * wallet, so it counts only once Base's receipts show its USDC reaching the wallet, and only
 * for the one payout that claims its transaction first. Until then, and while the provider
 * does not answer, nothing is reported and the next poll asks again.
 */
import type { DeliveryReader } from '../adapters/conversion/conversion-provider.js';
import type { PayoutBridgeProvider, PayoutBridgeState } from '../adapters/conversion/payout-bridge.js';
import type { DeliveryClaims } from '../payments/delivery-claims.js';
import type { EffectContext } from '../runtime/actor-kind.js';
import { reportToSelf } from '../runtime/effect-report.js';
import type { PaymentChain } from '../../machines/payment/index.js';
import type { PayoutEvent } from '../../machines/payout/index.js';

export interface PayoutBridgeDependencies {
  provider: PayoutBridgeProvider;
  deliveries: DeliveryReader;
  claims: DeliveryClaims;
  /** Base, where refunds arrive. */
  chain: PaymentChain;
}

export interface CheckBridgeParams {
  payoutId: string;
  requestId: string;
  walletAddress: string;
  usdcAmount: string;
}

export function payoutBridgeEffects(deps: PayoutBridgeDependencies | null) {
  return {
    async checkBridge(params: CheckBridgeParams, context: EffectContext) {
      if (!deps) return;
      let state: PayoutBridgeState;
      try {
        state = await deps.provider.status(params.requestId);
      } catch (error) {
        context.logger.warn({ err: error, payoutId: params.payoutId }, 'the conversion provider did not say where the bridge stands; the next poll asks again');
        return;
      }
      const at = new Date(context.clock.now()).toISOString();
      const observed = { type: 'BRIDGE_OBSERVED' as const, requestId: params.requestId, at };
      if (state.status === 'success')
        return reportToSelf<PayoutEvent>(context, {
          ...observed,
          status: 'DELIVERED',
          deliveredAmount: state.deliveredAmount?.toString() ?? null,
          destinationTxHash: state.destinationTransactionHash,
          refundedUsdc: null,
          refundTxHash: null,
        });
      if (state.status !== 'refund' || state.refundTransactionHash === null) return;
      const refund = await deps.deliveries.delivered(deps.chain, [state.refundTransactionHash], params.walletAddress as `0x${string}`, null);
      if (!refund) return;
      if (!(await deps.claims.claim(deps.chain.chainId, refund.transactionHash, params.payoutId, at))) {
        context.logger.error(
          { payoutId: params.payoutId, transactionHash: refund.transactionHash },
          'the provider named a refund another payout or payment already counted',
        );
        return;
      }
      await reportToSelf<PayoutEvent>(context, {
        ...observed,
        status: 'REFUNDED',
        deliveredAmount: null,
        destinationTxHash: null,
        refundedUsdc: refund.netUsdc.toString(),
        refundTxHash: refund.transactionHash.toLowerCase(),
      });
    },
  };
}
