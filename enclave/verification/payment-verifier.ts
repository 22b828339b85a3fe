/**
 * The one payment verifier every platform's normalized payment goes through: does this
 * payment prove that the intent was paid? Pure: the replay check, which needs a store,
 * is the used-payment-id registry's, and runs after these rules pass.
 */
import { FIAT_DECIMALS, USDC_DECIMALS, ceilDiv } from '../../machines/money.js';
import { PaymentRefusedError } from '../errors.js';
import type { NormalizedPayment } from '../platforms/platform.js';
import { CONVERSION_RATE_DECIMALS, idHash, type IntentSnapshot } from './intent-snapshot.js';

const OWED_SCALE = 10n ** BigInt(USDC_DECIMALS + CONVERSION_RATE_DECIMALS - FIAT_DECIMALS);

/**
 * The fiat, in cents, that buys `usdcAmount` at `conversionRate` (fiat per USDC, 18
 * decimals), rounded up: a payment a fraction of a cent short does not release the
 * whole intent.
 */
export function fiatOwed(usdcAmount: bigint, conversionRate: bigint): bigint {
  return ceilDiv(usdcAmount * conversionRate, OWED_SCALE);
}

export interface VerifiedPayment {
  /** USDC base units to release: the whole intent, as the payment covers it. */
  releaseAmount: bigint;
}

export function verifyPayment(payment: NormalizedPayment, intent: IntentSnapshot): VerifiedPayment {
  if (!payment.completed) {
    throw new PaymentRefusedError('PAYMENT_NOT_COMPLETED', `payment ${payment.paymentId} is not completed on the platform (pending, failed or reversed)`);
  }
  if (payment.currency !== intent.fiatCurrencyCode) {
    throw new PaymentRefusedError('CURRENCY_MISMATCH', `the payment was made in ${payment.currency}; the intent is in ${intent.fiatCurrencyCode}`);
  }
  const owed = fiatOwed(intent.amount, intent.conversionRate);
  if (payment.amount < owed) {
    throw new PaymentRefusedError(
      'AMOUNT_TOO_LOW',
      `the payment is ${payment.amount} ${payment.currency} cents; the intent needs at least ${owed} (${intent.amount} USDC base units at rate ${intent.conversionRate}e-18)`,
    );
  }
  if (idHash(payment.payeeId) !== intent.payeeDetails) {
    throw new PaymentRefusedError('PAYEE_MISMATCH', "the payment's recipient is not the payee the intent's deposit names");
  }
  const earliestMs = intent.signalTimestamp * 1000n - intent.timestampBuffer;
  if (BigInt(payment.timestampMs) < earliestMs) {
    throw new PaymentRefusedError(
      'PAYMENT_BEFORE_INTENT',
      `the payment is dated ${new Date(payment.timestampMs).toISOString()}, before the intent was signalled at ${new Date(Number(intent.signalTimestamp) * 1000).toISOString()} (buffer ${intent.timestampBuffer} ms)`,
    );
  }
  return { releaseAmount: intent.amount };
}
