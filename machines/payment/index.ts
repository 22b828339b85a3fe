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
  Remediation,
  RemediationEvent,
  RemediationName,
  CryptoConversion,
  TransferEvent,
} from './payment-types.js';
export { buyerShareBps, CONVERSION_RATE_DECIMALS, creditOf, currencyPerUsdRate, feesOf, fiatOwed, priceAttempt, priceIntent } from './pricing.js';
export type { FeeSchedule, FeeSplit, IntentPrice } from './pricing.js';
export { memoNamesIntent, paymentReference } from './payment-reference.js';
export { conversionOf, paymentAmountText, toCheckoutPayment } from './checkout-payment.js';
export type { CheckoutPayment, CheckoutPaymentQuote, PaymentPenalty } from './checkout-payment.js';
export {
  FULFIL_PURPOSE,
  paymentMachine,
  SETTLEMENT_WAIT_MS,
  SIGNAL_PURPOSE,
  statusEventOf,
  TRANSFER_FAST_POLLS,
  TRANSFER_POLL_MS,
  TRANSFER_SLOW_POLL_MS,
  UNCANCELLABLE_STEPS,
} from './payment-machine.js';
export type {
  PaymentChargebackEmitted,
  PaymentEmitted,
  PaymentRetractionEmitted,
  PaymentStatusEmitted,
  PaymentStep,
  PaymentSummary,
} from './payment-machine.js';
export { cryptoCandidate, DEFAULT_TOKEN, sandboxConversion, sandboxFiatQuote, sandboxRecipient, spreadBps } from './quotes.js';
export type { CryptoQuote, QuoteCandidate, QuotedConversion } from './quotes.js';
export {
  ATTEMPT_LIFETIME_MS,
  cancelTransactionId,
  EXTEND_PURPOSE,
  EXTENSION_MS,
  EXTENSION_REVERT_CODES,
  extensionRevertCodeOf,
  fulfilTransactionId,
  signalTransactionId,
} from './payment-remediation.js';
export type { RemediationOutcome } from './payment-remediation.js';
export type { ChargebackClaim, ChargebackRefundOverlap, PaymentChargebackFact } from './chargeback-types.js';
