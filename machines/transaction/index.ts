/**
 * machines/transaction: a chain transaction the relayer sends for an owner (a payment,
 * later a payout), from the call to its outcome, and the fee rules of its attempts.
 */
export type {
  Attempt,
  Authorization,
  ChainCall,
  Fees,
  Hex,
  MachineAddress,
  OutcomeStatus,
  ReceiptReport,
  SendingPolicy,
  TransactionContext,
  TransactionEvent,
  TransactionInput,
  TransactionOutcome,
  TransactionOutcomeEvent,
  TransactionRequest,
} from './transaction-types.js';
export { CANCELLATION_GAS, DEFAULT_UNSENT_FAIL_MS, delegationOf, latestAttempt, transactionMachine, transactionStatusOf } from './transaction-machine.js';
export type { TransactionStatus } from './transaction-machine.js';
export { bumpedFees, firstFees } from './fees.js';
