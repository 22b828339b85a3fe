/**
 * A bridge as merchants read it: `data.paymentBridge` of the PAYMENT_BRIDGE_* webhooks and
 * the hosted order's `bridgeInfo` (document 1 leaves OrderBridgeInfo "not shown"; this is its
 * shape, docs/bridges.md). Amounts are decimal strings: USDC with six decimals, the delivered
 * amount in the destination token's own.
 */
import { formatTokenAmount, formatUsdc } from '../money.js';
import type { BridgeContext, BridgeStatus } from './bridge-types.js';

export interface PaymentBridge {
  id: string;
  paymentId: string;
  orderId: string;
  status: BridgeStatus;
  sourceChainId: string;
  sourceToken: string;
  destinationChainId: string;
  destinationToken: string;
  destinationAddress: string;
  /** The payment's net settled USDC the bridge took on Base. */
  amountUsdc: string;
  /** What the current attempt is expected to deliver, in the destination token; null before a quote. */
  estimatedAmount: string | null;
  deliveredAmount: string | null;
  /** How many times the provider was tried (1 to 3). */
  attempts: number;
  providerRequestId: string | null;
  /** The Base transaction that sent the USDC to the provider, for the current attempt. */
  sourceTransactionHash: string | null;
  destinationTransactionHash: string | null;
  failureReason: string | null;
  /** Where a FAILED bridge's USDC went back to: the merchant's wallet on Base. */
  refundAddress: string | null;
  refundedAmountUsdc: string | null;
  refundTransactionHash: string | null;
  createdAt: string;
  submittedAt: string | null;
  completedAt: string | null;
  failedAt: string | null;
  updatedAt: string;
}

export function toPaymentBridge(context: BridgeContext, status: BridgeStatus): PaymentBridge {
  const current = context.attempts.at(-1) ?? null;
  const tokenAmount = (units: bigint | null | undefined) =>
    units === null || units === undefined ? null : formatTokenAmount(units, context.destination.decimals);
  return {
    id: context.id,
    paymentId: context.paymentId,
    orderId: context.orderId,
    status,
    sourceChainId: context.source.chainId,
    sourceToken: context.source.token,
    destinationChainId: context.destination.chainId,
    destinationToken: context.destination.token,
    destinationAddress: context.destination.address,
    amountUsdc: formatUsdc(context.amountUsdc),
    estimatedAmount: tokenAmount(current?.estimatedAmount),
    deliveredAmount: tokenAmount(context.deliveredAmount),
    attempts: context.attempts.length,
    providerRequestId: current?.requestId ?? null,
    sourceTransactionHash: current?.sourceTxHash ?? null,
    destinationTransactionHash: context.destinationTxHash,
    failureReason: context.failureReason,
    refundAddress: context.refund?.to ?? null,
    refundedAmountUsdc: context.refund ? formatUsdc(context.refund.amountUsdc) : null,
    refundTransactionHash: context.refund?.txHash ?? null,
    createdAt: context.createdAt,
    submittedAt: context.submittedAt,
    completedAt: context.completedAt,
    failedAt: context.failedAt,
    updatedAt: context.updatedAt,
  };
}
