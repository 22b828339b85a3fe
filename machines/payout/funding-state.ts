/**
 * Where a payout's funding stands, from the transfers last observed at its deposit address
 * (document 2, Funding behaviour). Only transfers that started at or before the deadline
 * count; a Bitcoin transfer counts as sent once its sweep is recorded; what counts as
 * received is the USDC read from the chain in the customer's wallet, not the provider's
 * word. Everything here is pure: the machine's guards and the view read it.
 */
import { depositSize } from './payout-amounts.js';
import type { FundingIssue, ObservedTransfer, PayoutContext, ReportedTransfer } from './payout-types.js';

export interface FundingTally {
  /** Sent on time, in the funding token (refunded and failed transfers left out). */
  sent: bigint;
  /** USDC on time in the customer's wallet. */
  received: bigint;
  /** An on-time transfer the provider still holds (seen, or converting). */
  converting: boolean;
}

const onTime = (transfer: ObservedTransfer, deadline: string) => transfer.startedAt <= deadline;

export function fundingTally(transfers: readonly ObservedTransfer[], deadline: string): FundingTally {
  let sent = 0n;
  let received = 0n;
  let converting = false;
  for (const transfer of transfers) {
    if (!onTime(transfer, deadline)) continue;
    if (transfer.status === 'seen' || transfer.status === 'converting') converting = true;
    if (transfer.swept && transfer.status !== 'refunded' && transfer.status !== 'failed') sent += transfer.originAmount;
    if (transfer.status === 'delivered') received += transfer.deliveredUsdc;
  }
  return { sent, received, converting };
}

/**
 * The newest report of each transfer over what was known. A transfer's delivered USDC never
 * shrinks, and a final status never goes back: a provider's later, poorer answer changes nothing.
 */
export function mergeTransfers(known: readonly ObservedTransfer[], reported: readonly ReportedTransfer[]): ObservedTransfer[] {
  const merged = new Map(known.map((transfer) => [transfer.id, transfer]));
  for (const report of reported) {
    const before = merged.get(report.id);
    const next: ObservedTransfer = {
      id: report.id,
      status: report.status,
      originAmount: BigInt(report.originAmount),
      startedAt: before?.startedAt ?? report.startedAt,
      swept: report.swept || (before?.swept ?? false),
      sourceTransactionHash: report.sourceTransactionHash ?? before?.sourceTransactionHash ?? null,
      deliveredUsdc: BigInt(report.deliveredUsdc),
      deliveryTransactionHash: report.deliveryTransactionHash ?? before?.deliveryTransactionHash ?? null,
      refundTransactionHash: report.refundTransactionHash ?? before?.refundTransactionHash ?? null,
    };
    if (before && FINAL.has(before.status)) {
      next.status = before.status;
      if (before.deliveredUsdc > next.deliveredUsdc) next.deliveredUsdc = before.deliveredUsdc;
    }
    merged.set(report.id, next);
  }
  return [...merged.values()].sort((a, b) => (a.startedAt < b.startedAt ? -1 : a.startedAt > b.startedAt ? 1 : a.id < b.id ? -1 : 1));
}

const FINAL = new Set<ObservedTransfer['status']>(['delivered', 'refunded', 'failed']);

/** What the context's transfers add up to under its current deadline. */
export function tallyOf(context: Pick<PayoutContext, 'transfers' | 'quoteExpiresAt'>): FundingTally {
  return fundingTally(context.transfers, context.quoteExpiresAt);
}

/** The received USDC covers the payout: funded at once, whatever else is still converting. */
export function coversPayout(context: PayoutContext, tally: FundingTally): boolean {
  return tally.received >= context.payoutUsdc;
}

/** The whole funding amount was sent, every on-time transfer has landed, and some USDC arrived. */
export function fullySentAndLanded(context: PayoutContext, tally: FundingTally): boolean {
  return tally.sent >= context.fundingAmount && !tally.converting && tally.received > 0n;
}

export function fundedDeposit(context: PayoutContext, tally: FundingTally): bigint {
  return depositSize(tally.received, context.payoutUsdc, context.terms.payoutStepUsdc);
}

/** ISO time `ms` after `iso`. */
export function isoPlus(iso: string, ms: number): string {
  return new Date(Date.parse(iso) + ms).toISOString();
}

/** Each on-time arrival moves the deadline to a window after it, unless it is already later. */
export function movedDeadline(context: Pick<PayoutContext, 'quoteExpiresAt' | 'fundingWindowMs'>, at: string): string {
  const candidate = isoPlus(at, context.fundingWindowMs);
  return candidate > context.quoteExpiresAt ? candidate : context.quoteExpiresAt;
}

/**
 * Funding issues the transfers show that are not recorded yet: a route refund per refunded
 * transfer; late funds for USDC delivered from a transfer that started after the deadline,
 * or delivered after the payout left AWAITING_FUNDING without being counted; and an
 * overpayment once more than the funding amount was sent and more USDC than quoted arrived.
 */
export function newFundingIssues(context: PayoutContext, countedIds: ReadonlySet<string>, at: string): FundingIssue[] {
  const recorded = new Set(context.issues.map((issue) => `${issue.kind}:${issue.transferId ?? ''}`));
  const issues: FundingIssue[] = [];
  const add = (issue: FundingIssue) => {
    const key = `${issue.kind}:${issue.transferId ?? ''}`;
    if (!recorded.has(key)) {
      recorded.add(key);
      issues.push(issue);
    }
  };
  for (const transfer of context.transfers) {
    if (transfer.status === 'refunded')
      add({ kind: 'ROUTE_REFUND', transferId: transfer.id, amount: transfer.originAmount, txHash: transfer.refundTransactionHash, occurredAt: at });
    if (transfer.status === 'delivered' && !countedIds.has(transfer.id))
      add({ kind: 'LATE_FUNDS', transferId: transfer.id, amount: transfer.deliveredUsdc, txHash: transfer.deliveryTransactionHash, occurredAt: at });
  }
  const tally = tallyOf(context);
  if (tally.sent > context.fundingAmount && tally.received > context.expectedUsdc)
    add({ kind: 'OVERPAYMENT', transferId: null, amount: tally.received - context.expectedUsdc, txHash: null, occurredAt: at });
  return issues;
}

/** The transfers whose USDC the payout counted: delivered on time while it was open. */
export function countedTransferIds(transfers: readonly ObservedTransfer[], deadline: string): Set<string> {
  return new Set(transfers.filter((transfer) => transfer.status === 'delivered' && onTime(transfer, deadline)).map((transfer) => transfer.id));
}
