/**
 * Document 1's dispute payload (`data` of DISPUTE_* webhooks) and the merchant's read
 * view of a dispute, which adds the merchant read fields to it.
 */
import { formatFiat } from '../money.js';
import type { DisputeContext, DisputeStatus, StakeStatus } from './dispute-types.js';

export interface DisputePayload {
  disputeId: string;
  orderId: string;
  paymentId: string;
  intentHash: string;
  /** Raw 6-decimal USDC units: 12500000 is 12.5 USDC. */
  amountUsdc: string;
  /** 2-decimal fiat. */
  caseAmount: string;
  caseCurrency: string;
  sellerAddress: string;
  status: DisputeStatus;
  dueAt: string;
  paidTxHash: string | null;
}

export interface DisputeReadFields {
  id: string;
  merchantId: string;
  rail: string;
  platform: string;
  stakeStatusAtOpen: StakeStatus;
  fulfillTxHash: string | null;
  stakeClaimTxHash: string | null;
  openedAt: string;
  paidAt: string | null;
  escalatedAt: string | null;
  updatedAt: string;
}

export function toDisputePayload(context: DisputeContext, status: DisputeStatus): DisputePayload {
  return {
    disputeId: context.disputeId,
    orderId: context.orderId,
    paymentId: context.paymentId,
    intentHash: context.intentHash,
    amountUsdc: context.amountUsdc.toString(),
    caseAmount: formatFiat(context.caseAmountCents),
    caseCurrency: context.caseCurrency,
    sellerAddress: context.sellerAddress,
    status,
    dueAt: context.dueAt,
    paidTxHash: context.paidTxHash,
  };
}

export function toDisputeReadFields(context: DisputeContext): DisputeReadFields {
  return {
    id: context.id,
    merchantId: context.merchantId,
    rail: context.rail,
    platform: context.platform,
    stakeStatusAtOpen: context.stakeStatusAtOpen,
    fulfillTxHash: context.fulfillTxHash,
    stakeClaimTxHash: context.stakeClaimTxHash,
    openedAt: context.openedAt,
    paidAt: context.paidAt,
    escalatedAt: context.escalatedAt,
    updatedAt: context.updatedAt,
  };
}
