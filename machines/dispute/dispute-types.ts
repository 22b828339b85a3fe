/**
 * What a dispute is made of (docs/disputes.md): the case a customer or maker opened over a
 * settled payment, resolved by the gateway to the payment's order, merchant, rail and
 * seller, and what the merchant owes the seller. Money in base units, times ISO strings.
 */
import type { Environment } from '../merchant/index.js';

export type DisputeStatus = 'OPEN' | 'PAID' | 'ESCALATED';

/**
 * Whether the maker's deposit had dispute protection when the dispute was opened: a
 * protected deposit's stake compensates the seller when the merchant does not pay.
 */
export type StakeStatus = 'PROTECTED' | 'UNPROTECTED';

/** How the dispute was opened: the attestation service's DKIM dispute attestation, or a sandbox simulation. */
export type DisputeSource = 'ATTESTATION' | 'SANDBOX_SIMULATION';

export interface DisputeInput {
  /** The actor's id: dsp_ and 24 hex digits of the platform and its case id. */
  id: string;
  /** The payment platform's case id, as its e-mail states it. */
  disputeId: string;
  /** The platform that sent the dispute e-mail (venmo, paypal), or `sandbox`. */
  platform: string;
  source: DisputeSource;
  orderId: string;
  paymentId: string;
  intentHash: string;
  merchantId: string;
  environment: Environment;
  rail: string;
  /** What the merchant pays the seller, USDC base units: what the maker's deposit released for the intent. */
  amountUsdc: bigint;
  /** The fiat the customer sent, in cents of caseCurrency: what the case is about. */
  caseAmountCents: bigint;
  caseCurrency: string;
  /** The maker's deposit owner on Base, whom the merchant pays. */
  sellerAddress: string;
  stakeStatusAtOpen: StakeStatus;
  /** The transaction that released the intent's USDC; null for a sandbox payment. */
  fulfillTxHash: string | null;
  at: string;
  /** When the merchant must have paid by; the dispute escalates then. */
  dueAt: string;
}

export interface DisputeContext extends Omit<DisputeInput, 'at'> {
  openedAt: string;
  paidAt: string | null;
  /** The Base transaction that paid the seller, once the chain showed it. */
  paidTxHash: string | null;
  escalatedAt: string | null;
  /** The stake compensation's transaction, once the stake claim answered; null otherwise. */
  stakeClaimTxHash: string | null;
  updatedAt: string;
}

export type DisputeEvent = { type: 'PAY'; txHash: string; at: string } | { type: 'STAKE_CLAIMED'; transactionHash: string; at: string };
