/**
 * What a payment attempt is made of: the creation input the gateway hands over (the
 * quote already chosen and priced, money in base units) and the context the payment
 * machine keeps. Timestamps are ISO strings, as on the order.
 */
import type { Environment, FeePayer } from '../merchant/index.js';
import type { ReferralSplitConfig } from '../merchant/referral-split.js';
import type { PenaltyTerm } from './attestation-abi.js';
import type { FeeSchedule, IntentPrice } from './pricing.js';
import type { ChargebackClaim, ChargebackCompensatedFact, ChargebackRecordedEvent, PaymentChargebackFact } from './chargeback-types.js';

import type { Hex } from '../transaction/transaction-types.js';

export type { Hex };
export type PaymentStatus = 'CREATED' | 'SETTLED' | 'CANCELLED' | 'EXPIRED' | 'FAILED';

/**
 * How the payment is proven: the buyer's own session read by the attestation service
 * (BUYER_TEE), or, in the sandbox, nothing at all (SIMULATED).
 */
export type ProofMode = 'BUYER_TEE' | 'SIMULATED';

/**
 * Whether the customer must write `suggestedMemo` in the payment's memo. REQUIRED when
 * the maker's own session may resolve the payment (seller automated release): the memo
 * is all that ties a received payment to its intent. OPTIONAL otherwise.
 */
export type MemoPolicy = 'REQUIRED' | 'OPTIONAL';

/** Where the chain side of a live payment lives; null in the sandbox, which touches no chain. */
export interface PaymentChain {
  chainId: number;
  escrow: Hex;
  orchestrator: Hex;
}

/** The deposit liquidity the attempt takes, and the intent terms signalled on it. */
export interface PaymentQuote {
  /** The platform that carries the payment, as the deposit accepts it (`venmo`, `zelle-chase`). */
  processorName: string;
  depositId: string;
  /** keccak256 of the maker's payee id on the platform, as the deposit names it. */
  payeeDetails: Hex;
  escrowAddress: Hex;
  /** Where the intent releases USDC: the order's destination. */
  toAddress: Hex;
  fiatCurrencyCode: string;
  /** Fiat per USDC, 18 decimals: the deposit's rate. */
  conversionRate: bigint;
  /** Whether the maker's stored session can resolve the payment without the buyer. */
  sellerAutomatedRelease: boolean;
  /**
   * Whether the deposit has dispute protection, which the attestation service charges its
   * PURCHASE_PROTECTION penalty for. Absent on quotes from before penalties, which read as false.
   */
  disputeProtection?: boolean;
}

/**
 * A crypto attempt's conversion: the provider's request the customer's token transfer is
 * tied to. The provider quoted it before the attempt was created (its request id is the
 * attempt's railIdentifier from the start) and delivers USDC to `recipient`, the platform's
 * fee to `feeRecipient`, when the transfer arrives at `depositAddress`.
 */
export interface CryptoConversion {
  requestId: string;
  depositAddress: string;
  originChainId: number;
  /** The token the customer pays in, by symbol (USDC) and by address on the origin chain. */
  originToken: string;
  originTokenAddress: string;
  originDecimals: number;
  /** What the customer is asked to send, in the token's base units. */
  originAmount: bigint;
  recipient: Hex;
  /** Null when the platform takes no fee. */
  feeRecipient: Hex | null;
}

/** Who takes the platform's fee on chain, and the split the order keeps for the attempt's rail (referral-fees.ts). */
export interface PaymentReferral {
  /** The intent's referrer (the platform's fee recipient); null when the node has none (the sandbox). */
  referrer: string | null;
  split: ReferralSplitConfig | null;
}

export interface PaymentInput {
  id: string;
  orderId: string;
  merchantId: string;
  environment: Environment;
  rail: string;
  /** The Zelle bank the customer picked; null on other rails. */
  paymentMethodId: string | null;
  currency: string;
  proofMode: ProofMode;
  /** Where the customer's client reaches the attestation service (document 1's `attestation.serviceUrl`). */
  attestationServiceUrl: string;
  quote: PaymentQuote;
  price: IntentPrice;
  /** The fees the price was computed with; the platform's is signalled as the intent's referrer fee. */
  fees: FeeSchedule;
  feePayer: FeePayer;
  /**
   * The buyer's share of the fees the price was computed with (pricing.ts buyerShareBps), which
   * is also their share of a penalty. Absent on attempts from before penalties: read from the fee payer.
   */
  buyerShareBps?: number;
  /**
   * Who takes the platform's fee and how the order shares it with its referral partners
   * (referral-fees.ts). Absent on attempts from before referral fees, which show none.
   */
  referral?: PaymentReferral | null;
  /** The fiat the customer is asked to send, in cents of `currency`. */
  paymentAmountCents: bigint;
  /** Opaque to the customer's eyes but what the platform shows: the recipient the page tells the customer to pay. */
  payTo: string;
  /** 1.0 to 5.0, one decimal. */
  recipientRating: number;
  memoPolicy: MemoPolicy;
  windowMs: number;
  chain: PaymentChain | null;
  /** Set on crypto rails, null on fiat rails. */
  conversion: CryptoConversion | null;
  at: string;
}

/** What the customer sealed for the attestation service; kept only until it has been verified. */
export interface SubmittedProof {
  encryptedSessionMaterial: string;
  params: Record<string, string>;
}

/** Document 1's remediation actions, as they reach the attempt they act on. */
export type RemediationName = 'RECREATE' | 'EXTEND' | 'FULFILL_SAR';

/**
 * The remediation action the attempt is carrying out for the merchant, and tells how it ended:
 * one at a time (the routes allow one live action of a kind per attempt, and the attempt takes
 * no second one while this one runs).
 */
export interface Remediation {
  actionId: string;
  actionName: RemediationName;
}

export interface PaymentContext extends Omit<PaymentInput, 'at'> {
  quoteExpiresAt: string;
  /** The intent hash once the intent is signalled; null before (and always in the sandbox until it settles). */
  railIdentifier: string | null;
  /** Unix seconds of the block that signalled the intent. */
  signalTimestamp: number | null;
  /**
   * Unix seconds the intent expires, as the orchestrator set it when signalled. Absent on
   * snapshots written before the attestation bound it, which read as null: the proof's
   * verification then reads it from the intent on chain.
   */
  expiryTime: number | null;
  proof: SubmittedProof | null;
  /** The attestation the service signed, ABI-encoded, until it is submitted on chain. */
  paymentProof: Hex | null;
  /** How many fulfilment transactions were sent, so each retry has its own id. */
  fulfilAttempts: number;
  sentAt: string | null;
  fulfillTransaction: string | null;
  netSettledUsdcAmount: bigint | null;
  /** The penalties the settlement applied, as the attestation service signed them (penalties.ts); empty while nothing is settled. */
  penalties: PenaltyTerm[];
  /** What the settlement counted against the order; null until SETTLED. */
  creditedUsdcAmount: bigint | null;
  /** The chain fact the settlement came from, so its retraction can be matched; null while nothing is settled. */
  settlementFactId: string | null;
  /**
   * Settlement facts a chain reorganisation took back (their retractions arrived): never
   * counted again, whatever redelivers them. Absent on snapshots written before retractions
   * were handled, which read as none.
   */
  retractedFactIds: string[];
  /** Crypto rails: how many times the provider was asked about the transfer (the asking slows down after a while). */
  transferPolls: number;
  /** Crypto rails: what the provider received from the customer, once it did. */
  transferReceived: { originAmount: bigint; sourceTransactionHash: string | null } | null;
  /** Crypto rails: the platform fee delivered with the settlement; null until SETTLED, and on fiat rails (the price says it). */
  settledFeeUsdc: bigint | null;
  errorCode: string | null;
  errorMessage: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
  /**
   * How many times a recreate reopened the attempt: each reopening signals a new intent under its
   * own transaction ids. Absent on snapshots from before remediation, which read as 0.
   */
  reopenings: number;
  /** When the attempt was last opened: its creation, or its last reopening. What the order sorts its attempts by. */
  openedAt: string;
  /** The action being carried out; null when none is. */
  remediation: Remediation | null;
  /** The receipt id a fulfil-from-receipt action gave, while the seller path checks it; null otherwise. */
  sellerReceipt: { txId: string } | null;
  /** The chain's record of a chargeback, told to the order; null until one arrives (payment-chargeback.ts). */
  chargebackClaim: ChargebackClaim | null;
  /** The chargeback as the order completed it: what the payment carries; null until the order answers. */
  chargeback: PaymentChargebackFact | null;
}

/** A transaction's end as the relayer tells its owner (machines/transaction). */
export interface TransactionOutcomeMessage {
  type: 'TRANSACTION_OUTCOME';
  transactionId: string;
  purpose: string;
  outcome: { status: 'MINED' | 'REPLACED' | 'FAILED' | 'DROPPED'; hash: string | null; reason: string | null; at?: number };
}

/** A chain fact in its proto JSON form, as the chain-facts reader delivers it; only what the payment reads. */
export interface PaymentChainFact {
  type: 'CHAIN_FACT';
  fact: {
    id: string;
    transactionHash?: string;
    /** Unix seconds, as a decimal string. */
    blockTimestamp?: string;
    retracted?: boolean;
    intentFulfilled?: { intentHash: string; amount: string; fundsTransferredTo: string };
    intentPruned?: { intentHash: string };
    chargebackCompensated?: ChargebackCompensatedFact;
  };
}

export type CancelReason = 'CUSTOMER' | 'REPLACED';

/**
 * What the conversion provider says of a crypto attempt's transfer, after the node checked
 * it: the customer's token arrived (RECEIVED), USDC was delivered on the settlement chain
 * (DELIVERED, read from the chain, never taken from the provider's word), or the transfer
 * failed or was refunded (FAILED). Amounts in base units, as decimal strings.
 */
export type TransferEvent =
  | { type: 'TRANSFER_RECEIVED'; originAmount: string; sourceTransactionHash: string | null; at: string }
  | { type: 'TRANSFER_DELIVERED'; transactionHash: string; netUsdc: string; feeUsdc: string; originAmount: string; at: string }
  | { type: 'TRANSFER_FAILED'; status: string; message: string; at: string };

/**
 * What remediation asks of the attempt (REOPEN, EXTEND, SELLER_RECEIPT: the action's runner),
 * and what the chain answered about an extension (the payment's own effects).
 */
export type RemediationEvent =
  | { type: 'REOPEN'; actionId: string; at: string }
  | { type: 'EXTEND'; actionId: string; at: string }
  | { type: 'SELLER_RECEIPT'; actionId: string; txId: string; at: string }
  | { type: 'INTENT_EXTENDED'; expiryTime: number; at: string }
  | { type: 'EXTENSION_REFUSED'; code: string; message: string; at: string }
  /** A tell this attempt sent was refused for good: an action that ended before the attempt's news arrived. */
  | { type: 'MESSAGE_REFUSED'; to: { kind: string; id: string }; event: unknown; code: string; message: string };

export type PaymentEvent =
  | { type: 'INTENT_SIGNALED'; intentHash: Hex; signalTimestamp: number; expiryTime: number; at: string }
  | { type: 'MARK_SENT'; at: string }
  | { type: 'SUBMIT_PROOF'; proof: SubmittedProof; at: string }
  | { type: 'PAYMENT_VERIFIED'; paymentProof: Hex; at: string }
  | { type: 'VERIFICATION_REJECTED'; code: string; message: string; at: string }
  | { type: 'SIMULATE_PAYMENT'; at: string }
  | { type: 'CANCEL'; reason: CancelReason; at: string }
  | RemediationEvent
  | TransferEvent
  | TransactionOutcomeMessage
  | PaymentChainFact
  | ChargebackRecordedEvent;
