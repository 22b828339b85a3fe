/**
 * What a payout needs of the conversion provider: a one-off deposit address that converts
 * whatever is sent to it into USDC on Base for the customer's wallet (less the app fees),
 * and the provider's record of every transfer it saw there. The provider's word is never
 * taken for money: a delivery counts once its USDC is read from the chain's receipts
 * (DeliveryReader), and the payout decides which transfers count from their start times.
 *
 * Failures are typed so the gateway can answer document 2's codes: a refusal of the route
 * (ConversionRefused with FUNDING_AMOUNT_TOO_LOW or ROUTE_UNAVAILABLE) is the merchant's to
 * change; anything else (an outage, a timeout, an answer that does not parse) is
 * FundingProviderUnavailable, worth retrying with the same key.
 */
import { PlatformError } from '../../errors/platform-error.js';

/** The provider's refusal codes a payout distinguishes; any other refusal is a quote failure. */
export const FUNDING_AMOUNT_TOO_LOW = 'FUNDING_AMOUNT_TOO_LOW';
export const FUNDING_ROUTE_UNAVAILABLE = 'ROUTE_UNAVAILABLE';

export interface FundingRequest {
  /** Ours, so asking twice for one payout (a retried create) answers the same deposit address. */
  reference: string;
  originChainId: number;
  /** The catalog's address: all-zero for a native token, the provider's BTC identifier on Bitcoin. */
  originTokenAddress: string;
  /** Where a transfer the provider cannot convert goes back; null: to its sender (EVM only). */
  refundAddress: string | null;
  /** The customer's wallet on Base. */
  recipient: `0x${string}`;
  destinationChainId: number;
  destinationTokenAddress: `0x${string}`;
  /** USDC base units a transfer of `originAmount` delivers in all, the app fees included (EXACT_OUTPUT). */
  amount: bigint;
  /** Basis points of what is delivered, each to its own recipient on Base (the merchant's fee, the service's fee). */
  appFees: Array<{ recipient: `0x${string}`; feeBps: number }>;
}

export interface FundingQuote {
  requestId: string;
  depositAddress: string;
  /** What to send, in the origin token's base units. */
  originAmount: bigint;
  originDecimals: number;
  /** USDC base units that `originAmount` delivers, app fees included. */
  destinationAmount: bigint;
}

/**
 * One transfer the provider saw at the deposit address. `seen`: in the mempool or mined but
 * not yet taken (Bitcoin before its sweep); `converting`: taken, USDC not delivered yet;
 * `delivered`, `refunded`, `failed` are final.
 */
export type FundingTransferStatus = 'seen' | 'converting' | 'delivered' | 'refunded' | 'failed';

export interface FundingTransfer {
  /** Stable across reads: the source transaction (and output, on Bitcoin). */
  id: string;
  status: FundingTransferStatus;
  /** What was sent, in the origin token's base units. */
  originAmount: bigint;
  /** When the provider first saw it (for Bitcoin, in the mempool): what decides whether it was on time. */
  startedAt: string;
  /** Bitcoin: whether the provider recorded its sweep of the deposit; always true on EVM chains. */
  swept: boolean;
  sourceTransactionHash: string | null;
  /** The USDC deliveries on Base, once delivered. */
  destinationTransactionHashes: string[];
  /** The refund in the token sent, on the origin chain (a Bitcoin txid on Bitcoin). */
  refundTransactionHash: string | null;
}

export interface FundingActivity {
  requestId: string;
  depositAddress: string;
  /** Oldest first. Any entry, whatever its status, is a record at the deposit address. */
  transfers: FundingTransfer[];
}

export interface FundingProvider {
  openFunding(request: FundingRequest): Promise<FundingQuote>;
  activity(requestId: string): Promise<FundingActivity>;
}

/** The provider did not answer, or answered something that is not an answer: retry later. */
export class FundingProviderUnavailable extends PlatformError {
  override readonly name = 'FundingProviderUnavailable';
  readonly code = 'FUNDING_PROVIDER_UNAVAILABLE';
}
