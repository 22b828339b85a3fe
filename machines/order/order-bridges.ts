/**
 * The bridges of an order's payments, as each told the order (docs/bridges.md): the bridge actor
 * tells its order every status it enters, so a chargeback recorded later names the bridge of the
 * payment it charges back and where it stood (PaymentChargebackFact's bridgeOrSweepOverlap)
 * without the order reading another actor. Pure.
 */
import type { PaymentChargebackFact } from '../payment/chargeback-types.js';
import type { OrderBridge, OrderContext } from './order-types.js';

/**
 * The bridges with `news` kept: one per payment, the newest by `at`. News older than what the
 * order holds changes nothing; news at the same time replaces it, since a bridge tells its
 * statuses in the order it enters them.
 */
export function withBridge(bridges: readonly OrderBridge[], news: OrderBridge): OrderBridge[] {
  const known = bridges.find((bridge) => bridge.paymentId === news.paymentId);
  if (known === undefined) return [...bridges, news];
  if (news.at < known.at) return [...bridges];
  return bridges.map((bridge) => (bridge === known ? news : bridge));
}

/** The payment's bridge where it stood, or null when the payment was never bridged. */
export function bridgeOverlapOf(context: Pick<OrderContext, 'bridges'>, paymentId: string): PaymentChargebackFact['bridgeOrSweepOverlap'] {
  const bridge = (context.bridges ?? []).find((known) => known.paymentId === paymentId);
  return bridge === undefined ? null : { paymentBridgeId: bridge.paymentBridgeId, status: bridge.status };
}
