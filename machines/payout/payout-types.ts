/**
 * The payout actor's input, context and events. Amounts are bigint base units: USDC for
 * what reaches the customer, the funding token's units for what the merchant sends. The
 * customer's e-mail and wallet are kept here for the effects and the checkout, and never
 * reach a PayoutView.
 */
import type { TransactionOutcomeEvent } from '../transaction/index.js';
import type { CryptoDestination, PayoutMethod } from './payout-methods.js';
import type { PayoutRail } from './payout-rails.js';

export type PayoutStatus = 'AWAITING_FUNDING' | 'FUNDED' | 'READY' | 'LISTING' | 'PAYING' | 'SETTLED' | 'CANCELLED' | 'EXPIRED';
export type PayoutFundingStatus = 'AWAITING_FUNDING' | 'PARTIALLY_FUNDED' | 'FUNDED' | 'FUNDING_EXPIRED';
/** Before the provider has given a deposit address the payout is not created yet, and no route shows it. */
export type PayoutPhase = 'PREPARING' | 'NOT_CREATED' | PayoutStatus;

export interface PayoutFunding {
  chainId: number;
  tokenAddress: string;
  symbol: string;
  decimals: number;
  stable: boolean;
  refundAddress: string | null;
}

/** What the merchant's settings were at creation (document 2: copied onto the payout). */
export interface PayoutTerms {
  rails: PayoutRail[];
  merchantFeeBps: number;
  merchantWalletAddress: string | null;
  serviceFeeBps: number;
  serviceWalletAddress: string;
  payoutStepUsdc: bigint;
}

export interface PayoutInput {
  id: string;
  merchantId: string;
  idempotencyKey: string;
  requestHash: string;
  customerEmail: string;
  merchantReference: string | null;
  returnUrl: string | null;
  payoutUsdc: bigint;
  funding: PayoutFunding;
  terms: PayoutTerms;
  bufferUsdc: bigint;
  expectedUsdc: bigint;
  depositUsdc: bigint;
  merchantFeeUsdc: bigint;
  /** How long funding stays open after creation and after each on-time arrival. */
  fundingWindowMs: number;
  /** How often the provider is asked while funding is open. */
  pollMs: number;
  /** Set when the payout is an order's refund (docs/refunds.md): the order hears how it goes. */
  refundOf?: { orderId: string } | null;
  at: string;
}

/** A transfer at the deposit address as last checked: the provider's record, and the USDC its delivery moved to the customer's wallet. */
export interface ObservedTransfer {
  id: string;
  status: 'seen' | 'converting' | 'delivered' | 'refunded' | 'failed';
  originAmount: bigint;
  startedAt: string;
  swept: boolean;
  sourceTransactionHash: string | null;
  /** USDC the delivery moved to the customer's wallet, read from the chain; 0 until then. */
  deliveredUsdc: bigint;
  deliveryTransactionHash: string | null;
  refundTransactionHash: string | null;
}

export type FundingIssueKind = 'OVERPAYMENT' | 'LATE_FUNDS' | 'ROUTE_REFUND';

export interface FundingIssue {
  kind: FundingIssueKind;
  /** The transfer it is about; the overpayment is about the funding as a whole. */
  transferId: string | null;
  /** USDC for late funds and an overpayment, the funding token's units for a route refund. */
  amount: bigint;
  txHash: string | null;
  occurredAt: string;
}

export type PayoutTimelineEventType =
  | 'CREATED'
  | 'PARTIALLY_FUNDED'
  | 'FUNDED'
  | 'FUNDING_EXPIRED'
  | 'SIGNED_IN'
  | 'METHOD_READY'
  | 'LISTED'
  | 'TRANSFER_SENT'
  | 'MATCHED'
  | 'PARTIALLY_PAID'
  | 'RELISTED'
  | 'BUYER_DROPPED'
  | 'RECONNECT_NEEDED'
  | 'LISTING_WITHDRAWN'
  | 'SETTLED'
  | 'CANCELLED'
  | 'FUNDING_ISSUE'
  | 'PAYOUT_REFUNDED';

export interface PayoutTimelineEntry {
  type: PayoutTimelineEventType;
  text: string;
  txHash: string | null;
  txChainId: number | null;
  occurredAt: string;
}

export interface PayoutContext extends Omit<PayoutInput, 'at'> {
  createdAt: string;
  updatedAt: string;
  /** Set once the provider and the wallet provider answered. */
  walletAddress: string | null;
  walletUserId: string | null;
  requestId: string | null;
  depositAddress: string | null;
  /** What to send, in the funding token's base units. */
  fundingAmount: bigint;
  /** The funding deadline; moves later with each on-time arrival. */
  quoteExpiresAt: string;
  /** When the deadline's timer was last armed: its delay counts from here. */
  deadlineArmedAt: string;
  transfers: ObservedTransfer[];
  receivedUsdc: bigint;
  /** The transfers whose USDC the funding counted; frozen once the payout leaves AWAITING_FUNDING, so later deliveries are late funds. */
  countedTransferIds: string[];
  depositAmount: bigint | null;
  fundedAt: string | null;
  cancelledAt: string | null;
  cancelSource: 'MERCHANT' | 'PEER_APP' | null;
  /** Why the preparation failed, with the code the create answers. */
  preparationError: { code: string; message: string } | null;
  issues: FundingIssue[];
  timeline: PayoutTimelineEntry[];
  /** The customer's side (docs/payout-checkout.md); empty until the customer acts. */
  method: PayoutMethod | null;
  /** Listings made so far: each confirm is the next, and names its deposit request. */
  listings: number;
  /** The least a buyer may take of a listing, as the latest confirm set it (the node's floor). */
  listingMinUsdc: bigint;
  /** The price the latest confirm listed at: 18 decimals of the method's currency per USDC. */
  listingRate: bigint;
  listing: PayoutListing | null;
  /** Why the latest confirm did not list, for the page; cleared by the next. */
  listingError: { code: string; message: string } | null;
  /** USDC buyers paid the customer through the escrow, across listings. */
  paidUsdc: bigint;
  /** Every buyer payment, oldest first; partialFills are those that left a rest. */
  fills: PayoutFill[];
  partialFills: PayoutFill[];
  /** The buyer paying now (PAYING): the intent that locked part of the listing. */
  buyer: { intentHash: string; lockedUsdc: bigint; rate: bigint | null; at: string } | null;
  settlement: PayoutSettlement | null;
  settledAt: string | null;
  /** Sends of the payout to a crypto destination so far: each confirm is the next, and names its transaction. */
  sends: number;
  /** Why the latest send did not go out; cleared by the next. */
  sendError: { code: string; message: string } | null;
  payoutTransfer: PayoutTransfer | null;
  /** Crypto payouts through the conversion provider, oldest first (docs/payout-checkout.md, "Crypto through the provider"). */
  bridges: PayoutBridge[];
  /** The listing being taken back, alone or with its remainder sent to an address (LISTING's EXITING). */
  exit: PayoutExit | null;
  /** USDC that bridge refunds came back short of what was sent (settlement.refundFeeAmount): no longer the customer's to be paid. */
  refundFeeUsdc: bigint;
}

/** A listing's exit: withdrawn to choose again, or withdrawn and sent (straight, or to the provider's deposit address). */
export interface PayoutExit {
  kind: 'WITHDRAW' | 'SEND' | 'BRIDGE' | 'RELIST';
  send: number;
  /** Where the remainder goes; null when it stays in the wallet. */
  to: string | null;
  amountUsdc: bigint;
  /** SEND and BRIDGE: the destination the customer asked for, the payout's method once the exit goes through (the listing's stays until then). */
  method: Extract<PayoutMethod, { kind: 'CRYPTO' }> | null;
}

export type PayoutBridgeStatus = 'QUOTED' | 'NOT_SENT' | 'BRIDGING' | 'DELIVERED' | 'REFUNDED';

/** A binding exact-input quote of the conversion provider, as the checkout took it before asking the payout to send. */
export interface PayoutBridgeQuote {
  requestId: string;
  provider: 'ROUTEA' | 'ROUTEB';
  /** On Base: where the customer's wallet sends the USDC for the provider to convert and deliver. */
  depositAddress: string;
  /** USDC base units the quote takes from the wallet. */
  usdcAmount: string;
  /** The destination token's base units the quote delivers. */
  estimatedAmount: string;
  quotedAt: string;
}

/** One crypto payout through the provider: its quote, the send that carried the USDC to it, and how it ended. */
export interface PayoutBridge {
  /** The payout's send (sendTransactionId) that carries the USDC to the provider. */
  send: number;
  requestId: string;
  provider: 'ROUTEA' | 'ROUTEB';
  depositAddress: string;
  destination: CryptoDestination;
  usdcAmount: bigint;
  estimatedAmount: bigint;
  quotedAt: string;
  status: PayoutBridgeStatus;
  /** From a listing's remainder (send-to-address) rather than the whole payout from READY. */
  fromListing: boolean;
  usdcTxHash: string | null;
  deliveredAmount: bigint | null;
  destinationTxHash: string | null;
  refundedUsdc: bigint | null;
  refundTxHash: string | null;
}

/** Document 2's payoutTransfer: the payout's USDC sent on Base (direct: txHash and usdcTxHash are the same, provider null). */
export interface PayoutTransfer {
  chainId: number;
  tokenAddress: string;
  decimals: number;
  address: string;
  amount: bigint;
  txHash: string;
  usdcTxHash: string;
  provider: 'ROUTEA' | 'ROUTEB' | null;
}

/** A payout's USDC listed in the escrow: a deposit of the customer's wallet that buyers take. */
export interface PayoutListing {
  depositId: string;
  /** The deposit request that made it (the deposit kind's id). */
  requestId: string;
  rail: string;
  currency: string;
  listedUsdc: bigint;
  /** What of this listing buyers paid. */
  paidUsdc: bigint;
  listedAt: string;
  /** The escrow's dust threshold when it landed: a payment leaving at most this is the last, the rest swept. */
  dustUsdc: bigint;
  /** The most one buyer may take, as listed or last relisted (the least is the listing's floor). */
  maxUsdc: bigint;
}

export interface PayoutFill {
  amount: bigint;
  txHash: string;
  paidAt: string;
  fiat: { currency: string; amount: string } | null;
}

/** Document 2's PayoutSettlementBreakdown, in base units. */
export interface PayoutSettlement {
  buyerPaidUsdc: bigint;
  sentUsdc: bigint;
  sentTo: string | null;
  returnedUsdc: bigint;
  dustUsdc: bigint;
  refundFeeUsdc: bigint;
}

/** A transfer as an effect reports it: amounts as strings, since events cross the wire as JSON. */
export interface ReportedTransfer {
  id: string;
  status: ObservedTransfer['status'];
  originAmount: string;
  startedAt: string;
  swept: boolean;
  sourceTransactionHash: string | null;
  deliveredUsdc: string;
  deliveryTransactionHash: string | null;
  refundTransactionHash: string | null;
}

export type PayoutEvent =
  | ({ type: 'CREATE' } & PayoutInput)
  /** The same request again after a preparation failed: the merchant retries with the same key. */
  | { type: 'RETRY'; at: string }
  | { type: 'PREPARED'; walletAddress: string; walletUserId: string; requestId: string; depositAddress: string; fundingAmount: string; at: string }
  | { type: 'PREPARATION_FAILED'; code: string; message: string; at: string }
  /** The provider reported activity at the deposit address: check now rather than at the next poll. */
  | { type: 'CHECK_FUNDING'; at: string }
  | { type: 'FUNDING_OBSERVED'; transfers: ReportedTransfer[]; at: string }
  | { type: 'CHAIN_FACT'; fact: { blockTimestamp?: string } & Record<string, unknown> }
  | { type: 'CANCEL'; at: string }
  /** Operators take a network off an open payout. */
  | { type: 'REMOVE_RAIL'; rail: PayoutRail; at: string }
  /** The customer's checkout (docs/payout-checkout.md). */
  | { type: 'SIGNED_IN'; at: string }
  | { type: 'SAVE_METHOD'; method: PayoutMethod; at: string }
  | { type: 'SKIP_CONNECT'; at: string }
  /** The customer's account on the method's rail, attested by the attestation service (the gateway checked it): connected until `validUntil`. */
  | { type: 'CONNECTED'; payeeId: string; validUntil: string; at: string }
  /**
   * List the unpaid USDC on the saved fiat method, buyers taking between `minUsdc` and 1,000
   * USDC each, at `rate` (18 decimals of the currency per USDC: 1.00 for USD, the feed's at 0 %
   * spread for the others).
   */
  | { type: 'CONFIRM'; minUsdc: string; rate: string; bridge?: PayoutBridgeQuote; at: string }
  /**
   * After a partial payment: withdraw the listed remainder and send it to `method`'s address,
   * straight in USDC on Base or through `bridge`; `remainderUsdc` is what the checkout priced.
   */
  | { type: 'SEND_TO_ADDRESS'; method: Extract<PayoutMethod, { kind: 'CRYPTO' }>; remainderUsdc: string; bridge: PayoutBridgeQuote | null; at: string }
  /** The customer changes method: the listing is withdrawn and the payout FUNDED again. */
  | { type: 'WITHDRAW'; at: string }
  /** After a partial payment: the listing's range set to what is left, so buyers are offered no more than there is. */
  | { type: 'RELIST'; at: string }
  /** The provider's word on a bridge, its refund read from the chain (refundedUsdc is what reached the wallet). */
  | {
      type: 'BRIDGE_OBSERVED';
      requestId: string;
      status: 'BRIDGING' | 'DELIVERED' | 'REFUNDED';
      deliveredAmount: string | null;
      destinationTxHash: string | null;
      refundedUsdc: string | null;
      refundTxHash: string | null;
      at: string;
    }
  /** `dustUsdc`: the escrow's dust threshold as the listing landed: a rest at or below it is swept, not listed again. */
  | { type: 'LISTED'; listing: number; depositId: string; requestId: string; dustUsdc: string; at: string }
  | { type: 'LISTING_FAILED'; listing: number; code: string; message: string; at: string }
  /** A send's transaction: the relayer's outcome of the payout's USDC leaving for the customer's address. */
  | TransactionOutcomeEvent
  /** The wallet would not sign the send (signer missing, or the policy refused it): nothing went out. */
  | { type: 'SEND_REFUSED'; send: number; code: string; message: string; at: string }
  /** The background wallet check: the USDC the customer's wallet holds now (docs/payout-checkout.md, "The wallet check"). */
  | { type: 'WALLET_CHECKED'; balanceUsdc: string; at: string };

/** What the listing effect is asked (actors/payouts/payout-listing.ts): amounts in USDC base units, the rate 18 decimals. */
export interface ListPayoutParams {
  payoutId: string;
  listing: number;
  walletAddress: string;
  amountUsdc: string;
  minUsdc: string;
  maxUsdc: string;
  platform: string;
  payeeId: string;
  currency: string;
  rate: string;
}
