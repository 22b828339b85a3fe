/**
 * How a settlement counts against an order (document 1, order status table). The
 * machine's guards and the order kind's refusals both read these, so what the
 * machine accepts and what the API refuses cannot drift apart.
 */
import type { OrderContext, Settlement } from './order-types.js';

export type SettlementRefusal = 'INVALID_AMOUNT' | 'AMOUNT_REQUIRED' | 'SETTLEMENT_ALREADY_APPLIED';

export function settlementRefusal(context: OrderContext, settlement: { paymentId: string; usdcAmount: bigint }): SettlementRefusal | null {
  // Messages cross a transport, so the type is checked, not trusted.
  if (typeof settlement.usdcAmount !== 'bigint' || settlement.usdcAmount <= 0n) return 'INVALID_AMOUNT';
  if (context.remainingUsdcAmount === null) return 'AMOUNT_REQUIRED';
  if (context.settlements.some((applied) => applied.paymentId === settlement.paymentId)) return 'SETTLEMENT_ALREADY_APPLIED';
  return null;
}

/** What is still owed after `usdcAmount` settles; an overpayment leaves zero, never a negative balance. */
function remainingAfter(context: OrderContext, usdcAmount: bigint): bigint {
  if (context.remainingUsdcAmount === null) throw new Error(`order ${context.id} has no amount to settle against`);
  const remaining = context.remainingUsdcAmount - usdcAmount;
  return remaining > 0n ? remaining : 0n;
}

/**
 * Covered when nothing is owed, or when what is owed is dust under the merchant's
 * completion threshold: a residual that small could not be paid by any further
 * payment, so waiting for it would leave the order open for ever.
 */
export function coversOrder(context: OrderContext, usdcAmount: bigint): boolean {
  const remaining = remainingAfter(context, usdcAmount);
  return remaining === 0n || remaining < context.completionDustThresholdUsdc;
}

/** The context after a settlement: recorded, and counted against what is owed. */
export function applySettlement(context: OrderContext, settlement: Settlement): Pick<OrderContext, 'settlements' | 'remainingUsdcAmount' | 'updatedAt'> {
  return {
    settlements: [...context.settlements, settlement],
    remainingUsdcAmount: remainingAfter(context, settlement.usdcAmount),
    updatedAt: settlement.at,
  };
}
