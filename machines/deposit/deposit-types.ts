/** What an atomic deposit creation is made from, what it keeps, and what it hears. */
import type { Hex } from 'viem';
import type { TransactionOutcomeEvent } from '../transaction/index.js';
import type { SetupCall } from './atomic-calls.js';

/** A request as the gateway checked it: the maker's calls in batch order and the deposit id reserved for it. */
export interface DepositRequest {
  requestId: string;
  /** The maker's embedded wallet: the account the batch runs as. */
  wallet: Hex;
  chainId: number;
  escrow: Hex;
  /** Digest of the request's meaning (wallet and calls): a second request under the same id must match it. */
  fingerprint: string;
  calls: SetupCall[];
  /** USDC base units the deposit takes. */
  amount: bigint;
  depositId: bigint;
  at: number;
}

export type DepositFailureCode =
  /** The batch would revert, or did, for a reason of the maker's calls: a 400 at the request. */
  | 'CALLDATA_REVERTS'
  /** The wallet provider no longer holds the wallet. */
  | 'EMBEDDED_WALLET_NOT_FOUND'
  /** The platform could not get the batch mined: a 502 at the request. */
  | 'SUBMISSION_FAILED';

export interface DepositFailure {
  code: DepositFailureCode;
  message: string;
}

export interface DepositContext extends DepositRequest {
  /** Submissions so far, counting from 0: a lost race for the reserved id submits again under a new one. */
  attempt: number;
  /** The relayer's transaction of the current submission. */
  transactionId: string | null;
  /** That transaction's outcome, when it came before the submission's own report; replayed once the report comes. */
  earlyOutcome: TransactionOutcomeEvent | null;
  /** Set once the deposit is confirmed: the transaction that created it. */
  transactionHash: Hex | null;
  failure: DepositFailure | null;
  confirmedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type DepositEvent =
  | ({ type: 'REQUEST' } & DepositRequest)
  /** The batch of submission `attempt` is with the relayer, for deposit `depositId`. */
  | { type: 'BATCH_SUBMITTED'; attempt: number; depositId: bigint; transactionId: string; at: number }
  /** Submission `attempt` could not be made at all. */
  | { type: 'SUBMISSION_REFUSED'; attempt: number; failure: DepositFailure; at: number }
  | TransactionOutcomeEvent
  /** After the batch was mined: whether the escrow holds the reserved deposit for the wallet. */
  | { type: 'DEPOSIT_CHECKED'; attempt: number; held: boolean; at: number };
