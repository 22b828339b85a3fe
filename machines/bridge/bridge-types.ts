/**
 * The types of one payment bridge: the net USDC of a settled payment of a bridged order,
 * moved from the platform's bridge wallet on Base to the order's destination through the
 * conversion provider (docs/bridges.md). Money is bigint base units here, decimal strings
 * in the public shape (bridge-view.ts).
 */
import type { Environment } from '../merchant/index.js';

export type BridgeStatus = 'PENDING' | 'SUBMITTED' | 'COMPLETED' | 'FAILED';

export interface BridgeEndpoint {
  chainId: string;
  /** The catalog's token address (the mint on Solana). */
  token: string;
  /** The token's decimals, as the catalog gives them. */
  decimals: number;
}

export interface BridgeDestination extends BridgeEndpoint {
  address: string;
}

/** One try of the provider: quoted, sent, then delivered or refunded to the bridge wallet. */
export interface BridgeAttempt {
  number: number;
  requestId: string | null;
  depositAddress: string | null;
  usdcAmount: bigint;
  estimatedAmount: bigint | null;
  sourceTxHash: string | null;
  failureReason: string | null;
  startedAt: string;
  endedAt: string | null;
}

export interface BridgeRefund {
  /** The merchant's wallet on Base. */
  to: string;
  amountUsdc: bigint;
  txHash: string | null;
  at: string | null;
}

export interface BridgeInput {
  id: string;
  paymentId: string;
  orderId: string;
  merchantId: string;
  environment: Environment;
  source: BridgeEndpoint;
  destination: BridgeDestination;
  /** The payment's net settled USDC: what the bridge wallet received for it. */
  amountUsdc: bigint;
  /** The merchant's wallet on Base, where a bridge that keeps failing is refunded. */
  refundAddress: string;
  at: string;
}

export interface BridgeContext extends Omit<BridgeInput, 'at'> {
  attempts: BridgeAttempt[];
  /** What the current attempt sends: the settled amount, or what the provider gave back of the last one. */
  availableUsdc: bigint;
  deliveredAmount: bigint | null;
  destinationTxHash: string | null;
  failureReason: string | null;
  refund: BridgeRefund | null;
  createdAt: string;
  submittedAt: string | null;
  completedAt: string | null;
  failedAt: string | null;
  updatedAt: string;
}

export type BridgeEvent =
  | { type: 'BRIDGE_QUOTED'; attempt: number; requestId: string; depositAddress: string; estimatedAmount: bigint; at: string }
  | { type: 'BRIDGE_SENT'; attempt: number; sourceTxHash: string; at: string }
  | { type: 'BRIDGE_DELIVERED'; attempt: number; deliveredAmount: bigint | null; destinationTxHash: string; at: string }
  /** The attempt did not deliver: the provider refused it, the send reverted, or the provider gave the USDC back (`returnedUsdc`). */
  | { type: 'BRIDGE_ATTEMPT_FAILED'; attempt: number; reason: string; returnedUsdc: bigint | null; at: string }
  | { type: 'BRIDGE_REFUNDED'; txHash: string; at: string };

/** Params of the effects the kind runs (docs/bridges.md, "Effects"). Plain data: charts print them. */
export interface QuoteBridgeParams {
  bridgeId: string;
  attempt: number;
  environment: Environment;
  usdcAmount: string;
  destinationChainId: string;
  destinationToken: string;
  destinationAddress: string;
}

export interface SendBridgeParams {
  bridgeId: string;
  attempt: number;
  environment: Environment;
  depositAddress: string;
  usdcAmount: string;
}

export interface CheckBridgeParams {
  bridgeId: string;
  attempt: number;
  environment: Environment;
  requestId: string;
}

export interface RefundBridgeParams {
  bridgeId: string;
  environment: Environment;
  to: string;
  usdcAmount: string;
}
