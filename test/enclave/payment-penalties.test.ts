/**
 * The attestation service's penalties as its verifier applies them (enclave/verification/
 * penalty-policy.ts): a payment in another currency converts only at a rate the service holds,
 * is held to the intent on its converted amount, and is charged CROSS_CURRENCY; a protected
 * deposit is charged PURCHASE_PROTECTION after it; the release is what the penalised amount buys.
 */
import test from 'ava';
import { PaymentRefusedError } from '../../enclave/errors.js';
import { idHash, type IntentSnapshot } from '../../enclave/verification/intent-snapshot.js';
import { verifyPayment } from '../../enclave/verification/payment-verifier.js';
import { NO_PENALTIES, type PenaltyPolicy } from '../../enclave/verification/penalty-policy.js';
import type { NormalizedPayment } from '../../enclave/platforms/platform.js';

const POLICY: PenaltyPolicy = { crossCurrencyBps: 150, purchaseProtectionBps: 100, fxRates: { 'USD/EUR': 920_000n } };
const SIGNAL = 1_795_000_000n;

/** 25 USDC at 0.925 EUR per USDC: 23.13 EUR owed (23.125 rounded up). */
const intent = (disputeProtection = false): IntentSnapshot => ({
  intentHash: `0x${'ab'.repeat(32)}`,
  amount: 25_000_000n,
  paymentMethod: idHash('revolut'),
  fiatCurrencyCode: 'EUR',
  fiatCurrency: idHash('EUR'),
  payeeDetails: idHash('makerben'),
  conversionRate: 925_000_000_000_000_000n,
  signalTimestamp: SIGNAL,
  expiryTime: SIGNAL + 3600n,
  timestampBuffer: 60_000n,
  disputeProtection,
});

const payment = (amount: bigint, currency: string): NormalizedPayment => ({
  paymentId: 'tx-1',
  amount,
  direction: 'OUTGOING',
  payerId: null,
  currency,
  payeeId: 'makerben',
  timestampMs: Number(SIGNAL) * 1000 + 5_000,
  completed: true,
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    if (error instanceof PaymentRefusedError) return error.code;
    throw error;
  }
  return null;
};

test('without a penalty policy nothing changes: another currency is refused, a protected deposit is released in full', (t) => {
  t.is(
    refusal(() => verifyPayment(payment(2515n, 'USD'), intent(), null, 'buyer', NO_PENALTIES)),
    'CURRENCY_MISMATCH',
  );
  t.deepEqual(verifyPayment(payment(2313n, 'EUR'), intent(true), null), { releaseAmount: 25_000_000n, penalties: [] });
});

test('a currency the service has no rate for is refused; one it has converts, is held to the intent converted, and is charged CROSS_CURRENCY', (t) => {
  t.is(
    refusal(() => verifyPayment(payment(2700n, 'GBP'), intent(), null, 'buyer', POLICY)),
    'CURRENCY_MISMATCH',
  );
  // 25.14 USD converts to 23.12 EUR (23.1288 down): a cent short of the 23.13 owed.
  t.is(
    refusal(() => verifyPayment(payment(2514n, 'USD'), intent(), null, 'buyer', POLICY)),
    'AMOUNT_TOO_LOW',
  );
  const verified = verifyPayment(payment(2515n, 'USD'), intent(), null, 'buyer', POLICY);
  t.deepEqual(verified.penalties, [{ kind: 'CROSS_CURRENCY', penaltyBps: 150, originalCents: 2313n, attestedCents: 2278n }]);
  t.is(verified.releaseAmount, 24_627_027n);
});

test('a protected deposit is charged PURCHASE_PROTECTION, after CROSS_CURRENCY when both apply', (t) => {
  const protectedOnly = verifyPayment(payment(2313n, 'EUR'), intent(true), null, 'buyer', POLICY);
  t.deepEqual(protectedOnly.penalties, [{ kind: 'PURCHASE_PROTECTION', penaltyBps: 100, originalCents: 2313n, attestedCents: 2289n }]);
  t.is(protectedOnly.releaseAmount, 24_745_945n); // 22.89 / 0.925, down
  const both = verifyPayment(payment(2515n, 'USD'), intent(true), null, 'buyer', POLICY);
  t.deepEqual(
    both.penalties.map((term) => [term.kind, term.originalCents, term.attestedCents]),
    [
      ['CROSS_CURRENCY', 2313n, 2278n],
      ['PURCHASE_PROTECTION', 2278n, 2255n],
    ],
  );
  // A protection rate of zero charges nothing and shows no row.
  t.deepEqual(verifyPayment(payment(2313n, 'EUR'), intent(true), null, 'buyer', { ...POLICY, purchaseProtectionBps: 0 }).penalties, []);
});
