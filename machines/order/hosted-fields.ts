/**
 * The fields document 1 shows on the hosted read only, beside the CheckoutOrder.
 * The gateway adds what needs the outside world (effectiveMin/effectiveMax need a
 * live exchange rate); what the order itself knows is decided here.
 */
import type { FiatAmount, FreeForm, OrderContext, OrderStatus } from './order-types.js';

export type AmountLockReason = 'PAYMENT_IN_PROGRESS' | 'PAYMENT_MAY_SETTLE' | 'PAID';

export interface HostedOrderFields {
  requestedFiat: FiatAmount | null;
  amountLock: AmountLockReason | null;
  /** OrderBridgeInfo of the current payment: the bridge kind holds it, and the gateway's hosted read shows it (gateway/orders/hosted-orders.ts). */
  bridgeInfo: FreeForm | null;
  applePayChargeUsdcAmount: string | null;
  savedInput: FiatAmount | null;
}

export function hostedOrderFields(context: OrderContext, status: OrderStatus): HostedOrderFields {
  return {
    requestedFiat: isPristineFiatOrder(context) ? context.requestedFiat : null,
    amountLock: amountLock(context, status),
    bridgeInfo: null,
    applePayChargeUsdcAmount: null,
    savedInput: context.savedInput,
  };
}

/**
 * Once value has settled, the fiat price no longer describes what is owed, so it is
 * withdrawn. Resizing (a later issue) changes the USDC amount and clears the context's
 * requestedFiat with it, for the same reason.
 */
function isPristineFiatOrder(context: OrderContext): boolean {
  return context.requestedFiat !== null && context.settlements.length === 0;
}

/**
 * PAID as soon as any value has settled, not only once FULFILLED: what has settled
 * was priced against the current amount, so changing the amount would change what
 * that money paid for. PAYMENT_MAY_SETTLE while an attempt's proof is being verified
 * or fulfilled, the customer said they sent the money, or an attempt's settlement was
 * taken back by a chain reorganisation and may be mined again: the amount the intent
 * was priced at may yet be paid. PAYMENT_IN_PROGRESS while any attempt is open. A
 * CANCELLED order with nothing settled has no lock: its status already closes it.
 */
export function amountLock(context: OrderContext, status: OrderStatus): AmountLockReason | null {
  if (status === 'FULFILLED' || context.settlements.length > 0) return 'PAID';
  if (status === 'CANCELLED') return null;
  const open = context.payments.filter((payment) => payment.status === 'CREATED');
  if (open.some((payment) => payment.paid || payment.step === 'VERIFYING' || payment.step === 'FULFILLING' || payment.step === 'AWAITING_SETTLEMENT'))
    return 'PAYMENT_MAY_SETTLE';
  return open.length > 0 ? 'PAYMENT_IN_PROGRESS' : null;
}
