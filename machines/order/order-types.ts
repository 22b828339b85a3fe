/**
 * What an order is made of: the creation input the gateway hands over (already
 * validated and normalised, money already in base units) and the context the order
 * machine keeps. Timestamps are `Date#toISOString()` strings, so comparing them as
 * strings compares instants.
 */
import type { Environment, FeePayer, ReferralSplitConfig } from '../merchant/index.js';
import type { OpenAmountConfig } from './open-amount.js';
import type { PaymentSummary } from './order-payments.js';
import type { PayoutInput } from '../payout/payout-types.js';
import type { ChargebackClaim, PaymentChargebackFact } from '../payment/chargeback-types.js';

export type AmountMode = 'FIXED' | 'OPEN';
/** A JSON object the merchant or Peer keeps on the order (`notes`, `metadata`). */
export type FreeForm = Record<string, unknown>;
export type OrderStatus = 'CREATED' | 'PARTIALLY_FULFILLED' | 'FULFILLED' | 'CANCELLED';
/** Document 1's OrderChargebackStatus (order-chargebacks.ts says how it moves). */
export type OrderChargebackStatus = 'NONE' | 'PARTIALLY_CHARGEBACKED' | 'CHARGEBACKED';

export interface FiatAmount {
  /** Two decimals, as formatFiat writes it. */
  amount: string;
  currency: string;
}

export interface OrderPricing {
  /** Fiat units per USD, six decimals (`0.920000`). */
  currencyPerUsdRate: string;
  currency: string;
  pricedAt: string;
}

export interface OrderInput {
  id: string;
  merchantId: string;
  environment: Environment;
  amountMode: AmountMode;
  /** Set for a FIXED order (converted from the fiat price when there is one); null for an OPEN order. */
  requestedUsdcAmount: bigint | null;
  /** The merchant's fiat price, when the order was priced in fiat. */
  requestedFiat: FiatAmount | null;
  /** The rate a fiat price was converted at, and when: what the order's USDC amount rests on. Null otherwise. */
  pricing?: OrderPricing | null;
  /** Set for an OPEN order only. */
  openAmount: OpenAmountConfig | null;
  destinationAddress: string;
  destinationToken: string;
  destinationChainId: string;
  feePayer: FeePayer;
  buyerFeeShareBps: number;
  enabledRails: string[];
  successUrl: string | null;
  cancelUrl: string | null;
  notes: FreeForm | null;
  metadata: FreeForm | null;
  dynamicOrdersEnabled: boolean;
  inPersonCheckout: boolean;
  completionDustThresholdUsdc: bigint;
  /**
   * The merchant's referral splits when the order was created (machines/merchant/referral-split.ts),
   * for fiat and crypto rails. Absent on orders from before referral fees, which read as null.
   */
  referralSplitConfig?: ReferralSplitConfig | null;
  cryptoReferralSplitConfig?: ReferralSplitConfig | null;
  /** The order token is the customer's credential; only its hash is kept. */
  orderTokenHash: string;
  idempotencyKey: string | null;
  /** Fingerprint of the create request, to tell an idempotent replay from a reused key. */
  requestHash: string | null;
  at: string;
}

/** The message that creates an order actor. */
export type CreateOrderEvent = { type: 'CREATE' } & OrderInput;

export interface Settlement {
  paymentId: string;
  usdcAmount: bigint;
  at: string;
}

/** A refund's state, by its payout (refunds.ts). */
export type RefundState = 'RESERVED' | 'RELEASED' | 'PENDING' | 'COMPLETED' | 'EXPIRED' | 'CANCELLED';

export interface OrderRefund {
  /** The refund's payout, whose id is the refund's. */
  payoutId: string;
  state: RefundState;
  /** What the merchant asked to refund. */
  requestedUsdc: bigint;
  /** What reached the customer's wallet: the payout's depositAmount once funded; null before. */
  refundedUsdc: bigint | null;
  /** The Base transaction that delivered the funding's USDC to the customer's wallet (the last, when several did). */
  transactionHash: string | null;
  metadata: FreeForm | null;
  requestedAt: string;
  /** When its payout was created: PENDING from then. */
  createdAt: string | null;
  completedAt: string | null;
  /** When its payout expired or was cancelled unfunded. */
  endedAt: string | null;
}

/** A resize the order took (resize.ts), under the key it was asked with, so a repeat of the request changes nothing. */
export interface OrderResize {
  idempotencyKey: string;
  previousUsdc: bigint;
  newUsdc: bigint;
  at: string;
}

export interface OrderContext extends Omit<OrderInput, 'at'> {
  /** What is still owed; null while an OPEN order has no amount. Never below zero. */
  remainingUsdcAmount: bigint | null;
  /** 0 until an OPEN order's amount is first saved, then up by one per save. */
  amountVersion: number;
  /** Every settlement applied, in order, one per payment. */
  settlements: Settlement[];
  /** Every payment attempt as it last reported, newest first. */
  payments: PaymentSummary[];
  /** An open amount as the customer typed it when it was last set; null before. */
  savedInput: FiatAmount | null;
  /** Every refund asked for, in the order asked (docs/refunds.md). */
  refunds: OrderRefund[];
  /** Every chargeback of its payments, in the order they arrived (order-chargebacks.ts). */
  chargebacks: PaymentChargebackFact[];
  /** The chargeback status last announced: a settlement that changes it is announced (order-chargebacks.ts). */
  chargebackStatus: OrderChargebackStatus;
  /** Every resize the merchant made, oldest first (docs/resize.md). */
  resizes: OrderResize[];
  /** Where each bridged payment's bridge last said it stood, one per payment (order-bridges.ts). */
  bridges: OrderBridge[];
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  completedAt: string | null;
}

export type OrderEvent =
  | { type: 'APPLY_SETTLEMENT'; paymentId: string; usdcAmount: bigint; at: string }
  /** A payment's settlement taken back: a chain reorganisation removed the block that settled it. */
  | { type: 'RETRACT_SETTLEMENT'; paymentId: string; at: string }
  | { type: 'PAYMENT_UPDATED'; payment: PaymentSummary }
  /**
   * The customer sets an open amount. With `amountVersion`, only over that version: the order
   * refuses a stale one (AMOUNT_CONFLICT), so two saves made from one version cannot both win.
   */
  | { type: 'SET_AMOUNT'; usdcAmount: bigint; fiat: FiatAmount; amountVersion?: number | undefined; at: string }
  | { type: 'CANCEL'; at: string }
  /** The merchant changes a FIXED order's amount (docs/resize.md); the key makes a repeat of the request change nothing. */
  | { type: 'RESIZE'; usdcAmount: bigint; idempotencyKey: string; at: string }
  /**
   * The merchant refunds `amountUsdc` (docs/refunds.md): the order reserves it and creates the
   * refund's payout with `payout`, the message the gateway made from the request (or, when that
   * payout failed to prepare, has it prepare again).
   */
  | { type: 'REFUND'; payoutId: string; amountUsdc: bigint; metadata: FreeForm | null; payout: RefundPayoutCreation; at: string }
  /** The refund's payout reports (machines/payout/refund-news.ts): created, not created, funded, expired or cancelled unfunded. */
  | { type: 'REFUND_PAYOUT_CREATED'; payoutId: string; at: string }
  | { type: 'REFUND_PAYOUT_NOT_CREATED'; payoutId: string; at: string }
  | { type: 'REFUND_PAYOUT_FUNDED'; payoutId: string; refundedUsdc: bigint; transactionHash: string | null; at: string }
  | { type: 'REFUND_PAYOUT_EXPIRED'; payoutId: string; at: string }
  | { type: 'REFUND_PAYOUT_CANCELLED'; payoutId: string; at: string }
  /** A payment of the order was charged back: the chain's record, which the order completes and answers with. */
  | { type: 'APPLY_CHARGEBACK'; claim: ChargebackClaim }
  /** A payment's bridge entered a status (docs/bridges.md): told by the bridge, kept for the chargebacks that follow. */
  | ({ type: 'BRIDGE_UPDATED' } & OrderBridge);

/** A payment's bridge as it last told its order; `at` orders the news, so a late one never overwrites a newer. */
export interface OrderBridge {
  paymentId: string;
  paymentBridgeId: string;
  status: 'PENDING' | 'SUBMITTED' | 'COMPLETED' | 'FAILED';
  at: string;
}

/** The message that creates a refund's payout: a payout's creation, told to it by the order. */
export type RefundPayoutCreation = { type: 'CREATE' } & PayoutInput;
