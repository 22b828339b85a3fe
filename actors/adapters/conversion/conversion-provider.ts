/**
 * What a crypto attempt needs of a conversion provider (Relay, or the local simulator that
 * stands in for it): a quote that opens a request with a deposit address, the request's
 * status, and its cancellation. Statuses are Relay's, as Peer's shared types name them
 * (`RelayCryptoPaymentStatus`). The provider's word is never taken for money: a delivery
 * is read from the settlement chain (DeliveryReader) before anything settles.
 */
import type { PaymentChain, PaymentHex as Hex } from '../../../machines/payment/index.js';
import { PlatformError } from '../../errors/platform-error.js';

export interface ConversionQuoteRequest {
  originChainId: number;
  /** The token the customer pays in, by symbol. */
  originToken: string;
  destinationChainId: number;
  destinationToken: Hex;
  recipient: Hex;
  /** USDC base units delivered in all (EXACT_OUTPUT), the app fees included. */
  amount: bigint;
  /** The platform's fee, in basis points of `amount`, delivered to its recipient beside the rest. */
  appFees: Array<{ recipient: Hex; feeBps: number }>;
  /** When the request stops taking deposits: later ones are refunded. */
  expiresAt: string;
}

export interface ConversionQuote {
  requestId: string;
  depositAddress: string;
  originToken: string;
  originTokenAddress: string;
  originDecimals: number;
  /** What the customer must send, in the token's base units: `amount` plus the provider's own fee. */
  originAmount: bigint;
  destinationAmount: bigint;
  expiresAt: string;
}

export type ConversionStatus = 'waiting' | 'pending' | 'delayed' | 'success' | 'failure' | 'refund';

export interface ConversionState {
  requestId: string;
  status: ConversionStatus;
  /** What reached the deposit address, in the token's base units; null before anything did. */
  originAmountReceived: bigint | null;
  sourceTransactionHash: string | null;
  /** The delivery's transactions on the settlement chain, once it succeeded. */
  destinationTransactionHashes: string[];
  message: string | null;
}

/** The provider refused the request as asked (a token or chain it does not convert, an amount out of its range): the customer's to change. */
export class ConversionRefused extends PlatformError {
  override readonly name = 'ConversionRefused';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ConversionProvider {
  quote(request: ConversionQuoteRequest): Promise<ConversionQuote>;
  status(requestId: string): Promise<ConversionState>;
  /** Stops the request taking deposits and answers where it stands: a deposit already taken is still delivered. */
  cancel(requestId: string): Promise<ConversionState>;
}

/** A delivery as the settlement chain shows it. */
export interface Delivery {
  transactionHash: Hex;
  netUsdc: bigint;
  feeUsdc: bigint;
}

export interface DeliveryReader {
  /**
   * The USDC that `transactionHashes` moved to `recipient` and to `feeRecipient`, read from
   * their receipts; null when none of them moved USDC to the recipient (not mined yet, or not a delivery).
   */
  delivered(chain: PaymentChain, transactionHashes: readonly string[], recipient: Hex, feeRecipient: Hex | null): Promise<Delivery | null>;
}
