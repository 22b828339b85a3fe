/**
 * What a payment bridge needs of the world (docs/bridges.md): the conversion provider's quote
 * of a bridge out of Base, the bridge wallet's sends of USDC on Base (to the provider's deposit
 * address, or back to the merchant), and the provider's word on where a request stands.
 *
 * Every call may run more than once (effects run at least once): a send is keyed by its
 * `sendId`, so asking again answers the same transaction and sends nothing more.
 */
import { PlatformError } from '../errors/platform-error.js';

export interface BridgeQuoteRequest {
  bridgeId: string;
  attempt: number;
  usdcAmount: bigint;
  destinationChainId: string;
  destinationToken: string;
  destinationAddress: string;
}

export interface BridgeRailQuote {
  requestId: string;
  /** On Base: where the USDC goes. */
  depositAddress: string;
  /** In the destination token's base units. */
  estimatedAmount: bigint;
}

export interface BridgeSend {
  /** The idempotency key of the send. */
  sendId: string;
  to: string;
  usdcAmount: bigint;
}

export type BridgeSendState = { status: 'pending' } | { status: 'mined'; transactionHash: string } | { status: 'failed'; reason: string };

export type BridgeRequestState =
  | { status: 'pending' }
  | { status: 'delivered'; deliveredAmount: bigint | null; destinationTransactionHash: string }
  /** The provider gave the USDC back to the bridge wallet: `returnedUsdc` what came back, once read. */
  | { status: 'refunded'; returnedUsdc: bigint | null; reason: string };

/** The provider refused the route as asked: the attempt fails (and counts toward the retries). */
export class BridgeRefused extends PlatformError {
  override readonly name = 'BridgeRefused';
  readonly code = 'BRIDGE_REFUSED';
}

export interface BridgeRail {
  quote(request: BridgeQuoteRequest): Promise<BridgeRailQuote>;
  send(send: BridgeSend): Promise<BridgeSendState>;
  status(requestId: string): Promise<BridgeRequestState>;
}
