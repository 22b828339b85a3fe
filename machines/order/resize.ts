/**
 * Resizing an order (docs/resize.md): the merchant changes a FIXED order's USDC amount
 * while it is still owed. Pure rules the machine's guards and the order kind's refusals
 * both read, so what the machine takes and what the API refuses cannot drift apart.
 *
 * Who and when. The merchant (API key, or a dashboard session of an Owner or Manager)
 * resizes a FIXED order that is CREATED or PARTIALLY_FULFILLED, to an amount no lower than
 * what already settled, while no attempt may still settle. An OPEN order's amount belongs
 * to the customer (SET_AMOUNT), an order created with dynamic orders off keeps its amount,
 * a FULFILLED or CANCELLED order is final: each refusal is
 * RESIZE_NOT_SUPPORTED with the reason.
 *
 * What it does. The new amount is owed less what settled; an amount that what settled
 * covers (to the merchant's dust threshold) fulfils the order. The fiat price and the rate
 * it was converted at stop describing the amount, so both are dropped (requestedFiat is
 * null from then). An attempt still open was quoted on the old amount: the order ends it
 * as a newer attempt would (a replacement's cancel, its intent released on chain), and the
 * customer starts again at the new amount. An attempt that may still settle (a proof being
 * verified or settled, the customer said they paid, a settlement waiting to land again)
 * refuses the resize: ending it could take money the customer has sent.
 */
import { settledUsdc } from './settlement.js';
import type { OrderContext, OrderResize, OrderStatus } from './order-types.js';
import { replaceable, type PaymentSummary } from './order-payments.js';

export type ResizeRefusal =
  | 'INVALID_AMOUNT'
  | 'OPEN_AMOUNT'
  | 'DYNAMIC_ORDERS_DISABLED'
  | 'ORDER_FULFILLED'
  | 'ORDER_CANCELLED'
  | 'PAYMENT_MAY_SETTLE'
  | 'BELOW_SETTLED'
  | 'SAME_AMOUNT';

export interface ResizeRequest {
  usdcAmount: bigint;
  idempotencyKey: string;
}

/** The resize the order took under this key, if any. */
export function resizeOf(context: Pick<OrderContext, 'resizes'>, idempotencyKey: string): OrderResize | undefined {
  return context.resizes.find((resize) => resize.idempotencyKey === idempotencyKey);
}

/** An open attempt the order may not end: money may be on its way. */
function mayStillSettle(payment: PaymentSummary): boolean {
  return payment.status === 'CREATED' && (payment.paid || !replaceable(payment));
}

/** Why the order refuses this resize, or null. A key it took already is never refused: the repeat changes nothing. */
export function resizeRefusal(context: OrderContext, status: OrderStatus, request: ResizeRequest): ResizeRefusal | null {
  if (resizeOf(context, request.idempotencyKey)) return null;
  // Messages cross a transport, so the type is checked, not trusted.
  if (typeof request.usdcAmount !== 'bigint' || request.usdcAmount <= 0n) return 'INVALID_AMOUNT';
  if (context.amountMode === 'OPEN') return 'OPEN_AMOUNT';
  // Resizing is a dynamic order's, as an open amount is: an order created with them off stays as created.
  if (!context.dynamicOrdersEnabled) return 'DYNAMIC_ORDERS_DISABLED';
  if (status === 'FULFILLED') return 'ORDER_FULFILLED';
  if (status === 'CANCELLED') return 'ORDER_CANCELLED';
  if (context.payments.some(mayStillSettle)) return 'PAYMENT_MAY_SETTLE';
  if (request.usdcAmount < settledUsdc(context)) return 'BELOW_SETTLED';
  if (request.usdcAmount === context.requestedUsdcAmount) return 'SAME_AMOUNT';
  return null;
}

/** What the new amount leaves owed: never below zero. */
function owedAt(context: OrderContext, usdcAmount: bigint): bigint {
  const owed = usdcAmount - settledUsdc(context);
  return owed > 0n ? owed : 0n;
}

/** Whether what settled covers the new amount (to the dust threshold): the resize fulfils the order. */
export function resizeCovers(context: OrderContext, usdcAmount: bigint): boolean {
  if (context.settlements.length === 0) return false;
  const owed = owedAt(context, usdcAmount);
  return owed === 0n || owed < context.completionDustThresholdUsdc;
}

/** The context after the resize: the new amount, what it leaves owed, no fiat price, and the resize kept under its key. */
export function resized(context: OrderContext, request: ResizeRequest & { at: string }) {
  const resize: OrderResize = {
    idempotencyKey: request.idempotencyKey,
    previousUsdc: context.requestedUsdcAmount ?? 0n,
    newUsdc: request.usdcAmount,
    at: request.at,
  };
  return {
    requestedUsdcAmount: request.usdcAmount,
    remainingUsdcAmount: owedAt(context, request.usdcAmount),
    requestedFiat: null,
    pricing: null,
    resizes: [...context.resizes, resize],
    updatedAt: request.at,
  };
}

/** The attempts the resize ends: open ones, quoted on the old amount (none may still settle, or the resize was refused). */
export function endedByResize(payments: readonly PaymentSummary[]): PaymentSummary[] {
  return payments.filter((payment) => payment.status === 'CREATED' && replaceable(payment));
}
