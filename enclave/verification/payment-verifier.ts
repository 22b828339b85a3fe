/**
 * The one payment verifier every platform's normalized payment goes through: does this
 * payment prove that the intent was paid? Pure: the replay check, which needs a store,
 * is the used-payment-id registry's, and runs after these rules pass.
 */
import { fiatOwed } from '../../machines/payment/pricing.js';
import { penalisedRelease, type PenaltyTerm } from '../../machines/payment/penalties.js';
import { convertedAmount, NO_PENALTIES, penaltiesFor, type PenaltyPolicy } from './penalty-policy.js';
import { PaymentRefusedError } from '../errors.js';
import type { NormalizedPayment } from '../platforms/platform.js';
import { idHash, type IntentSnapshot } from './intent-snapshot.js';
import { memoNamesIntent, paymentReference } from '../../machines/payment/payment-reference.js';

/**
 * Whose session read the payment: the buyer's, who sent it, or the seller's (the maker's
 * stored credential), who received it and cannot tell one payer from another but by memo.
 */
export type PaymentSide = 'buyer' | 'seller';

export interface VerifiedPayment {
  /** USDC base units to release: the whole intent, as the payment covers it, or what the penalised amount buys. */
  releaseAmount: bigint;
  /** The penalties applied, in order; empty when none did. */
  penalties: PenaltyTerm[];
}

/**
 * `sessionAccount` is the account the buyer's session belongs to, as the platform named it;
 * null where no session was read (a provider proof). A payment that names its payer must
 * have been made by that account: a story of somebody else's payment proves nothing of the buyer.
 */
export function verifyPayment(
  payment: NormalizedPayment,
  intent: IntentSnapshot,
  sessionAccount: string | null,
  side: PaymentSide = 'buyer',
  policy: PenaltyPolicy = NO_PENALTIES,
): VerifiedPayment {
  if (!payment.completed) {
    throw new PaymentRefusedError('PAYMENT_NOT_COMPLETED', `payment ${payment.paymentId} is not completed on the platform (pending, failed or reversed)`);
  }
  if (side === 'seller') checkReceived(payment, intent, sessionAccount);
  else checkSent(payment, sessionAccount);
  return checkTerms(payment, intent, policy);
}

/** The buyer's session sent it: outgoing, and by the session's own account where the platform names the payer. */
function checkSent(payment: NormalizedPayment, sessionAccount: string | null): void {
  if (payment.direction !== 'OUTGOING') {
    throw new PaymentRefusedError('PAYMENT_NOT_OUTGOING', `payment ${payment.paymentId} was received by the session's account, not sent from it`);
  }
  if (payment.payerId !== null && sessionAccount === null) {
    throw new PaymentRefusedError('PAYER_UNVERIFIABLE', `the platform's payments name their payer, and nothing here says which account the buyer's session is`);
  }
  if (payment.payerId !== null && payment.payerId !== sessionAccount) {
    throw new PaymentRefusedError('PAYER_MISMATCH', `payment ${payment.paymentId} was sent by another account than the buyer's session`);
  }
}

/** The seller's session received it, into its own account, and its memo names this intent and no other. */
function checkReceived(payment: NormalizedPayment, intent: IntentSnapshot, sessionAccount: string | null): void {
  if (payment.direction !== 'INCOMING') {
    throw new PaymentRefusedError('PAYMENT_NOT_INCOMING', `payment ${payment.paymentId} was sent from the seller's account, not received by it`);
  }
  if (sessionAccount === null || payment.payeeId !== sessionAccount) {
    throw new PaymentRefusedError('PAYEE_MISMATCH', `payment ${payment.paymentId} was received by another account than the seller's credential`);
  }
  if (!memoNamesIntent(payment.memo, intent.intentHash)) {
    throw new PaymentRefusedError(
      'MEMO_MISMATCH',
      `payment ${payment.paymentId} does not carry the intent's reference ${paymentReference(intent.intentHash)} in its memo`,
    );
  }
}

function checkTerms(payment: NormalizedPayment, intent: IntentSnapshot, policy: PenaltyPolicy): VerifiedPayment {
  const amount = convertedAmount(policy, payment.amount, payment.currency, intent.fiatCurrencyCode);
  if (amount === null) {
    throw new PaymentRefusedError('CURRENCY_MISMATCH', `the payment was made in ${payment.currency}; the intent is in ${intent.fiatCurrencyCode}`);
  }
  const owed = fiatOwed(intent.amount, intent.conversionRate);
  if (amount < owed) {
    const converted = payment.currency === intent.fiatCurrencyCode ? '' : ` (${amount} ${intent.fiatCurrencyCode} cents at the service's rate)`;
    throw new PaymentRefusedError(
      'AMOUNT_TOO_LOW',
      `the payment is ${payment.amount} ${payment.currency} cents${converted}; the intent needs at least ${owed} (${intent.amount} USDC base units at rate ${intent.conversionRate}e-18)`,
    );
  }
  if (idHash(payment.payeeId) !== intent.payeeDetails) {
    throw new PaymentRefusedError('PAYEE_MISMATCH', "the payment's recipient is not the payee the intent's deposit names");
  }
  // The window bounds when the payment was made, never when it is proved: a payment made in time may be attested after the expiry.
  const paidMs = BigInt(payment.timestampMs);
  if (paidMs < intent.signalTimestamp * 1000n - intent.timestampBuffer) {
    throw new PaymentRefusedError(
      'PAYMENT_BEFORE_INTENT',
      `the payment is dated ${new Date(payment.timestampMs).toISOString()}, before the intent was signalled at ${new Date(Number(intent.signalTimestamp) * 1000).toISOString()} (buffer ${intent.timestampBuffer} ms)`,
    );
  }
  if (paidMs > intent.expiryTime * 1000n + intent.timestampBuffer) {
    throw new PaymentRefusedError(
      'PAYMENT_AFTER_INTENT',
      `the payment is dated ${new Date(payment.timestampMs).toISOString()}, after the intent expired at ${new Date(Number(intent.expiryTime) * 1000).toISOString()} (buffer ${intent.timestampBuffer} ms)`,
    );
  }
  const penalties = penaltiesFor(policy, amount, payment.currency !== intent.fiatCurrencyCode, intent.disputeProtection);
  const credited = penalties.at(-1)?.attestedCents;
  if (credited === undefined) return { releaseAmount: intent.amount, penalties };
  return { releaseAmount: penalisedRelease(intent.amount, credited, intent.conversionRate), penalties };
}
