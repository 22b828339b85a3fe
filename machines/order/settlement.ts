/**
 * How a settlement counts against an order (document 1, order status table), and how
 * one is taken back when a chain reorganisation removes it. The machine's guards and
 * the order kind's refusals both read these, so what the machine accepts and what the
 * API refuses cannot drift apart.
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

/** Every unit that settled against the order, an overpayment and a late payment included: what was paid. */
export function settledUsdc(context: Pick<OrderContext, 'settlements'>): bigint {
  return context.settlements.reduce((total, settlement) => total + settlement.usdcAmount, 0n);
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

/** Whether the order counts a settlement of `paymentId`: the only kind a retraction can take back. */
export function holdsSettlement(context: OrderContext, paymentId: string): boolean {
  return context.settlements.some((applied) => applied.paymentId === paymentId);
}

/** What `settlements` leave owed of the order's amount; an overpayment leaves zero. */
function owedAfter(context: OrderContext, settlements: readonly Settlement[]): bigint | null {
  if (context.requestedUsdcAmount === null) return context.remainingUsdcAmount;
  const remaining = settlements.reduce((owed, settlement) => owed - settlement.usdcAmount, context.requestedUsdcAmount);
  return remaining > 0n ? remaining : 0n;
}

const covered = (context: OrderContext, remaining: bigint | null) =>
  remaining !== null && (remaining === 0n || remaining < context.completionDustThresholdUsdc);

/**
 * The context after `paymentId`'s settlement is taken back (a chain reorganisation removed
 * the block that settled it): the others stay, and what remains is owed again, counted
 * afresh from the amount. The order moves its updatedAt forward only: a retraction is
 * dated by the payment's last known time, which may be older than the order's.
 */
export function withoutSettlement(
  context: OrderContext,
  retraction: { paymentId: string; at: string },
): Pick<OrderContext, 'settlements' | 'remainingUsdcAmount' | 'updatedAt'> {
  const settlements = context.settlements.filter((applied) => applied.paymentId !== retraction.paymentId);
  return {
    settlements,
    remainingUsdcAmount: owedAfter(context, settlements),
    updatedAt: retraction.at > context.updatedAt ? retraction.at : context.updatedAt,
  };
}

/** Whether the order is still covered once `paymentId`'s settlement is taken back. */
export function coveredWithout(context: OrderContext, paymentId: string): boolean {
  return covered(
    context,
    owedAfter(
      context,
      context.settlements.filter((applied) => applied.paymentId !== paymentId),
    ),
  );
}

/** When the settlements, in the order they were applied, first covered the order; null while they do not. */
export function coveredAt(context: OrderContext): string | null {
  for (let count = 1; count <= context.settlements.length; count++) {
    if (covered(context, owedAfter(context, context.settlements.slice(0, count)))) return context.settlements[count - 1]!.at;
  }
  return null;
}
