/**
 * The shapes of a chargeback (docs/chargebacks.md), apart from the rules (payment-chargeback.ts)
 * so that the payment's and the order's types can name them without importing the rules.
 */

export type ChargebackRefundOverlap = 'NONE' | 'PENDING_HALTED' | 'SUBMITTING_OR_UNKNOWN' | 'ALREADY_SUBMITTED' | 'ALREADY_REFUNDED';

/** Document 1's PaymentChargebackFact. */
export interface PaymentChargebackFact {
  paymentId: string;
  intentHash: string;
  disputeId: string;
  status: 'CHARGEBACKED';
  /** USDC, as the API writes it. */
  compensatedUsdcAmount: string;
  /** The block time of the escrow's record. */
  disputedAt: string;
  disputeTxHash: string;
  refundOverlap: ChargebackRefundOverlap;
  /** A bridge or sweep of the payment's USDC under way when it was charged back; null until bridges exist (docs/chargebacks.md). */
  bridgeOrSweepOverlap: { paymentBridgeId: string; status: 'PENDING' | 'SUBMITTED' | 'COMPLETED' | 'FAILED' } | null;
}

/** What the chain recorded, before the order adds what it knows: what the payment tells its order. */
export interface ChargebackClaim {
  paymentId: string;
  intentHash: string;
  disputeId: string;
  /** USDC base units, as a decimal string (messages cross a transport). */
  compensatedUsdc: string;
  disputedAt: string;
  disputeTxHash: string;
  /** The fact it came from. */
  factId: string;
}

/** The order's answer: the whole fact, to carry. */
export type ChargebackRecordedEvent = { type: 'CHARGEBACK_RECORDED'; chargeback: PaymentChargebackFact };

/** The ChargebackCompensated fact in its proto JSON form. */
export interface ChargebackCompensatedFact {
  intentHash: string;
  disputeId: string;
  depositId: string;
  compensatedAmount: string;
}
