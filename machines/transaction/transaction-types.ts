/** What a transaction is made from, what it keeps, and what it hears from its effects and its owner. */
import type { MachineAddress } from '../wallet/wallet-types.js';

export type { MachineAddress };

/** 0x-prefixed hex, as the chain speaks it. */
export type Hex = `0x${string}`;

/** How the relayer treats a transaction once it is sent; fixed when the transaction is prepared. */
export interface SendingPolicy {
  /** Blocks a receipt must have on top of it (itself included) before the outcome is final. */
  confirmations: number;
  /** How long a sent transaction waits between looks for its receipt; each look also broadcasts it again. */
  checkEveryMs: number;
  /** How long an attempt may go unmined before it is replaced by one paying more. */
  bumpAfterMs: number;
  /** The most the relayer pays per gas, in wei: a bump never goes past it. */
  maxFeePerGas: bigint;
  /**
   * How long the chain may leave the call unpriced (its estimate failing, as a chain that
   * does not answer does) before the transaction fails unsent. Absent in transactions
   * prepared before it existed: DEFAULT_UNSENT_FAIL_MS.
   */
  unsentFailMs?: number;
}

/** What an owner asks to have sent. */
export interface TransactionRequest {
  to: Hex;
  data: Hex;
  value: bigint;
  /** What the call is for, for logs and the inspector: `signalIntent`, `fulfillIntent`, `cancelIntent`, … */
  purpose: string;
  /** Who hears the outcome: one TRANSACTION_OUTCOME message. Null for a transaction nobody waits on. */
  owner: MachineAddress | null;
  /**
   * EIP-7702 authorizations the transaction carries (a type-4 transaction): an account
   * delegating its code, so that this call can act as it. Absent for a plain call.
   */
  authorizationList?: Authorization[];
}

/** The call as the chain runs it: what estimating, signing and decoding a revert all need. */
export interface ChainCall {
  from: Hex;
  to: Hex;
  data: Hex;
  value: bigint;
  /** EIP-7702 authorizations: present and non-empty, the call is a type-4 transaction. */
  authorizationList?: Authorization[];
}

/** One EIP-7702 authorization, signed by the account that delegates its code to `address`. */
export interface Authorization {
  address: Hex;
  chainId: number;
  nonce: number;
  r: Hex;
  s: Hex;
  yParity: number;
}

export interface TransactionInput extends TransactionRequest {
  id: string;
  chainId: number;
  /** The sending wallet's address. */
  from: Hex;
  policy: SendingPolicy;
  at: number;
}

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** One signed form of the transaction: the first, a fee bump, or a cancellation (a transfer of nothing to itself). */
export interface Attempt extends Fees {
  hash: Hex;
  /** The signed bytes: kept before they are sent, so a restart sends these and never signs a second transaction. */
  raw: Hex;
  kind: 'ORIGINAL' | 'FEE_BUMP' | 'CANCELLATION';
  signedAt: number;
}

export type OutcomeStatus = 'MINED' | 'REPLACED' | 'FAILED' | 'DROPPED';

export interface TransactionOutcome {
  status: OutcomeStatus;
  /** The hash that was mined; null when none of ours was. */
  hash: Hex | null;
  blockNumber: bigint | null;
  gasUsed: bigint | null;
  effectiveGasPrice: bigint | null;
  /** The decoded revert (`IntentNotFound(0x…)`, `Error("…")`), or why it ended otherwise. */
  reason: string | null;
  /** The raw revert data, for an owner that decodes it itself. */
  revertData: Hex | null;
  at: number;
}

export interface TransactionContext extends TransactionInput {
  gasLimit: bigint | null;
  nonce: bigint | null;
  attempts: Attempt[];
  /** The owner asked for it not to happen: the nonce is spent on a cancellation instead. */
  cancelRequested: boolean;
  submittedAt: number | null;
  outcome: TransactionOutcome | null;
  createdAt: number;
  updatedAt: number;
}

/** A receipt of one of our attempts, as the chain reported it. */
export interface ReceiptReport {
  hash: Hex;
  succeeded: boolean;
  blockNumber: bigint;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  reason: string | null;
  revertData: Hex | null;
}

export type TransactionEvent =
  | ({ type: 'PREPARE' } & TransactionInput)
  | { type: 'ESTIMATED'; gasLimit: bigint; at: number }
  | { type: 'SIMULATION_REVERTED'; reason: string; revertData: Hex | null; at: number }
  | ({ type: 'SIGNED'; nonce: bigint } & Attempt)
  | ({ type: 'REPLACEMENT_SIGNED' } & Attempt)
  /** No bump is possible under the fee cap: the transaction waits at the fees it has. */
  | { type: 'BUMP_CAPPED'; at: number }
  | { type: 'BROADCAST'; hash: Hex; at: number }
  /** The node refused the bytes because the nonce is spent: one of ours was mined, or somebody else's. */
  | { type: 'NONCE_TOO_LOW'; at: number }
  | ({ type: 'RECEIPT'; at: number } & ReceiptReport)
  /** No receipt yet; `included` when one exists but lacks confirmations (no bump then). */
  | { type: 'NOT_MINED'; included: boolean; at: number }
  /** The nonce is spent and no attempt of ours has a receipt: another transaction of the key took it. */
  | { type: 'NONCE_USED_ELSEWHERE'; at: number }
  | { type: 'CANCEL'; at: number };

/** The one message an owner receives. Amounts are bigint, as the runtime carries them. */
export interface TransactionOutcomeEvent {
  type: 'TRANSACTION_OUTCOME';
  transactionId: string;
  purpose: string;
  outcome: TransactionOutcome;
  [key: string]: unknown;
}
