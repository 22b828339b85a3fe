/**
 * Document 2's CashoutPayoutBridgeView and the checkout's settleTx: how the customer's page
 * shows a crypto payout through the provider. Only the newest bridge is shown, and never one
 * that was NOT_SENT (its quote was bound, its USDC never left the wallet).
 */
import { formatTokenAmount, formatUsdcCents } from '../money.js';
import { BASE_CHAIN_ID } from './funding-catalog.js';
import type { PayoutContext, PayoutStatus } from './payout-types.js';

export interface PayoutBridgeView {
  provider: 'ROUTEA' | 'ROUTEB';
  status: 'QUOTED' | 'BRIDGING' | 'DELIVERED' | 'REFUNDED';
  destination: { chainId: number; tokenAddress: string; symbol: string; decimals: number; address: string };
  usdcAmount: string;
  estimatedAmount: string;
  deliveredAmount: string | null;
  destinationTxHash: string | null;
  refundedAmount: string | null;
  refundTxHash: string | null;
}

export function bridgeView(context: Pick<PayoutContext, 'bridges'>): PayoutBridgeView | null {
  const bridge = context.bridges.at(-1);
  if (!bridge || bridge.status === 'NOT_SENT') return null;
  const { decimals } = bridge.destination;
  return {
    provider: bridge.provider,
    status: bridge.status,
    destination: {
      chainId: bridge.destination.chainId,
      tokenAddress: bridge.destination.tokenAddress,
      symbol: bridge.destination.symbol,
      decimals,
      address: bridge.destination.address,
    },
    usdcAmount: formatUsdcCents(bridge.usdcAmount),
    estimatedAmount: formatTokenAmount(bridge.estimatedAmount, decimals),
    deliveredAmount: bridge.deliveredAmount === null ? null : formatTokenAmount(bridge.deliveredAmount, decimals),
    destinationTxHash: bridge.destinationTxHash,
    refundedAmount: bridge.refundedUsdc === null ? null : formatUsdcCents(bridge.refundedUsdc),
    refundTxHash: bridge.refundTxHash,
  };
}

/**
 * The transaction that settled the payout: a delivered bridge's on its destination network,
 * else the Base transaction of the send or of the last buyer's payment; null before it settled
 * and when the newest bridge was refunded.
 */
export function settleTxOf(
  context: Pick<PayoutContext, 'bridges' | 'payoutTransfer' | 'fills'>,
  status: PayoutStatus,
): { chainId: number; txHash: string } | null {
  if (context.bridges.at(-1)?.status === 'REFUNDED' || status !== 'SETTLED') return null;
  if (context.payoutTransfer) return { chainId: context.payoutTransfer.chainId, txHash: context.payoutTransfer.txHash };
  const fill = context.fills.at(-1);
  return fill ? { chainId: BASE_CHAIN_ID, txHash: fill.txHash } : null;
}
