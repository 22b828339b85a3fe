/** The payment attempt: its machine, its public view, the pricing and references it rests on, and its quotes' arithmetic. */
export type {
  Hex as PaymentHex,
  PaymentStatus,
  ProofMode,
  MemoPolicy,
  PaymentChain,
  PaymentQuote,
  PaymentInput,
  SubmittedProof,
  PaymentContext,
  TransactionOutcomeMessage,
  PaymentChainFact,
  CancelReason,
  PaymentEvent,
  CryptoConversion,
  TransferEvent,
} from './payment-types.js';
export * from './pricing.js';
export * from './payment-reference.js';
export * from './checkout-payment.js';
export * from './payment-machine.js';
export * from './quotes.js';
