/**
 * What a crypto payout needs of the conversion provider (document 2, payout-quote and
 * send-to-address): USDC on Base leaving the customer's wallet, converted and delivered as a
 * catalog token on another network. EXACT_INPUT: the USDC is what the quote takes, the
 * destination amount its estimate. A preview prices without binding; a binding quote opens a
 * request with a deposit address on Base, where the wallet sends the USDC once, and the
 * customer's wallet as the refund target should the provider fail to deliver.
 *
 * Route A serves every network but Zcash, route B Zcash (routeb_133701). The provider's word
 * is taken for a delivery on the destination network (no chain there is read); a refund is
 * money coming back, so the payout reads it from Base's receipts before it counts.
 */
import { PlatformError } from '../../errors/platform-error.js';

export const PAYOUT_AMOUNT_TOO_LOW = 'AMOUNT_TOO_LOW';
export const PAYOUT_ROUTE_UNAVAILABLE = 'ROUTE_UNAVAILABLE';

export type PayoutBridgeProviderName = 'ROUTEA' | 'ROUTEB';

export interface PayoutBridgeRoute {
  /** USDC base units on Base the customer's wallet sends. */
  usdcAmount: bigint;
  destinationChainId: number;
  /** The catalog's address of the token on the destination network. */
  destinationTokenAddress: string;
  /** The customer's address there, canonical. */
  recipient: string;
}

export interface PayoutBridgePreview {
  provider: PayoutBridgeProviderName;
  /** The destination token's base units the USDC would deliver now. */
  estimatedAmount: bigint;
}

export interface PayoutBridgeBinding extends PayoutBridgeRoute {
  /** Where the provider refunds on Base: the customer's wallet. */
  refundTo: `0x${string}`;
}

export interface PayoutBridgeQuote extends PayoutBridgePreview {
  requestId: string;
  /** On Base, where the USDC goes. */
  depositAddress: `0x${string}`;
  usdcAmount: bigint;
}

/** Where a request stands: waiting for the USDC, delivering, delivered, or refunded to the wallet. */
export type PayoutBridgeRequestStatus = 'waiting' | 'pending' | 'success' | 'refund';

export interface PayoutBridgeState {
  requestId: string;
  status: PayoutBridgeRequestStatus;
  deliveredAmount: bigint | null;
  destinationTransactionHash: string | null;
  /** The refund's transaction on Base, once refunded. */
  refundTransactionHash: string | null;
}

export interface PayoutBridgeProvider {
  preview(route: PayoutBridgeRoute): Promise<PayoutBridgePreview>;
  bind(binding: PayoutBridgeBinding): Promise<PayoutBridgeQuote>;
  status(requestId: string): Promise<PayoutBridgeState>;
}

/** The provider did not answer, or answered something that is not an answer: CASHOUT_PAYOUT_QUOTE_FAILED, or the next poll. */
export class PayoutBridgeUnavailable extends PlatformError {
  override readonly name = 'PayoutBridgeUnavailable';
  readonly code = 'PAYOUT_BRIDGE_UNAVAILABLE';
}
