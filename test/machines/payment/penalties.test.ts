/**
 * The penalties' arithmetic (machines/payment/penalties.ts) and the settlement's reading of
 * them: each step rounds down to the cent, the chain keeps document 1's order, the release
 * buys no more than was attested, and who bears the cut follows the fee payer. The worked
 * numbers are docs/penalties.md's.
 */
import test from 'ava';
import { encodeAbiParameters, type Hex } from 'viem';
import {
  PAYMENT_ATTESTATION_ABI,
  PAYMENT_DETAILS_ABI,
  INTENT_SNAPSHOT_ABI,
  PENALTIES_ABI,
  penaltyTuples,
  readAttestedRelease,
} from '../../../machines/payment/attestation-abi.js';
import {
  appliedPenalties,
  chainPenalties,
  convertFiat,
  penalise,
  penalisedCredit,
  penalisedPaymentAmount,
  penalisedRelease,
  settlementOf,
  type PenaltyTerm,
} from '../../../machines/payment/penalties.js';
import { priceIntent, type FeeSchedule } from '../../../machines/payment/pricing.js';

const FEES: FeeSchedule = { protocolFeeBps: 30, platformFeeBps: 50 };
const ZERO = `0x${'00'.repeat(32)}` as Hex;

test('penalise keeps (10000 − bps)/10000 of the amount, rounded down to the cent', (t) => {
  t.is(penalise(2313n, 150), 2278n); // 2278.305
  t.is(penalise(10_000n, 100), 9_900n); // exact
  t.is(penalise(1n, 1), 0n); // a cent at any rate above zero is lost, never rounded back up
  t.is(penalise(999n, 0), 999n);
  t.is(penalise(999n, 10_000), 0n);
  t.throws(() => penalise(100n, 10_001), { instanceOf: RangeError });
  t.throws(() => penalise(100n, 1.5), { instanceOf: RangeError });
});

test('chainPenalties applies each to what the last left, in document 1’s order only', (t) => {
  const terms = chainPenalties(2313n, [
    { kind: 'CROSS_CURRENCY', penaltyBps: 150 },
    { kind: 'PURCHASE_PROTECTION', penaltyBps: 100 },
  ]);
  t.deepEqual(terms, [
    { kind: 'CROSS_CURRENCY', penaltyBps: 150, originalCents: 2313n, attestedCents: 2278n },
    { kind: 'PURCHASE_PROTECTION', penaltyBps: 100, originalCents: 2278n, attestedCents: 2255n }, // 2255.22
  ]);
  t.deepEqual(chainPenalties(500n, []), []);
  t.throws(
    () =>
      chainPenalties(500n, [
        { kind: 'PURCHASE_PROTECTION', penaltyBps: 1 },
        { kind: 'CROSS_CURRENCY', penaltyBps: 1 },
      ]),
    { instanceOf: RangeError },
  );
  t.throws(
    () =>
      chainPenalties(500n, [
        { kind: 'CROSS_CURRENCY', penaltyBps: 1 },
        { kind: 'CROSS_CURRENCY', penaltyBps: 1 },
      ]),
    { instanceOf: RangeError },
  );
});

test('convertFiat and penalisedRelease round down: no cent and no base unit that was not paid', (t) => {
  t.is(convertFiat(2515n, 920_000n), 2313n); // 2313.8 EUR cents for 25.15 USD at 0.92
  // 22.78 EUR at 0.925 EUR per USDC: 24.627027027… USDC.
  t.is(penalisedRelease(25_000_000n, 2278n, 925_000_000_000_000_000n), 24_627_027n);
  // Never more than the intent locks, however much was paid.
  t.is(penalisedRelease(25_000_000n, 999_999n, 925_000_000_000_000_000n), 25_000_000n);
});

test('the credit of a penalised settlement: MERCHANT in full, PAYEE short by the cut, SPLIT by its share rounded in the order’s favour', (t) => {
  const price = priceIntent(100_000_000n, FEES, 0);
  const delivered = price.netUsdc - 1_000_001n;
  t.is(penalisedCredit(price, delivered, 0), price.creditUsdc);
  t.is(penalisedCredit(price, delivered, 10_000), price.creditUsdc - 1_000_001n);
  t.is(penalisedCredit(price, delivered, 5_000), price.creditUsdc - 500_000n); // 500000.5 rounded down
  t.is(penalisedCredit(price, 0n, 10_000), price.creditUsdc - price.netUsdc);
});

test('paymentAmount after penalties: the first original (MERCHANT), the last attested (PAYEE), SPLIT between', (t) => {
  const terms: PenaltyTerm[] = [
    { kind: 'CROSS_CURRENCY', penaltyBps: 150, originalCents: 2313n, attestedCents: 2278n },
    { kind: 'PURCHASE_PROTECTION', penaltyBps: 100, originalCents: 2278n, attestedCents: 2255n },
  ];
  t.is(penalisedPaymentAmount(terms, 0), 2313n);
  t.is(penalisedPaymentAmount(terms, 10_000), 2255n);
  t.is(penalisedPaymentAmount(terms, 5_000), 2284n); // 2313 − 29 (58 × ½)
  t.is(penalisedPaymentAmount(terms, 3_333), 2294n); // 2313 − 19 (19.33 down)
  t.throws(() => penalisedPaymentAmount([], 0), { instanceOf: RangeError });
});

function proofOf(releaseAmount: bigint, penalties: PenaltyTerm[]): Hex {
  const details = { method: ZERO, payeeId: ZERO, amount: 1n, currency: ZERO, timestamp: 1n, paymentId: ZERO };
  const snapshot = {
    intentHash: ZERO,
    amount: 1n,
    paymentMethod: ZERO,
    fiatCurrency: ZERO,
    payeeDetails: ZERO,
    conversionRate: 1n,
    signalTimestamp: 1n,
    expiryTime: 2n,
    timestampBuffer: 0n,
  };
  const data =
    penalties.length > 0
      ? encodeAbiParameters([PAYMENT_DETAILS_ABI, INTENT_SNAPSHOT_ABI, PENALTIES_ABI], [details, snapshot, penaltyTuples(penalties)])
      : encodeAbiParameters([PAYMENT_DETAILS_ABI, INTENT_SNAPSHOT_ABI], [details, snapshot]);
  return encodeAbiParameters([PAYMENT_ATTESTATION_ABI], [{ intentHash: ZERO, releaseAmount, dataHash: ZERO, signatures: [], data, metadata: '0x' }]);
}

test('the settlement applies the attestation’s penalties only when the chain delivered what its release nets', (t) => {
  const price = priceIntent(25_000_000n, FEES, 0);
  const terms = chainPenalties(2313n, [{ kind: 'CROSS_CURRENCY', penaltyBps: 150 }]);
  const release = 24_627_027n;
  const proof = proofOf(release, terms);
  t.deepEqual(readAttestedRelease(proof), { releaseAmount: release, penalties: terms });
  t.deepEqual(readAttestedRelease(proofOf(release, [])), { releaseAmount: release, penalties: [] });
  t.is(readAttestedRelease('0xa77e57'), null);

  const releaseNet = release - (release * 30n) / 10_000n - (release * 50n) / 10_000n;
  t.deepEqual(appliedPenalties(proof, FEES, releaseNet), terms);
  // The maker released the whole intent by hand: none of the attestation's penalties applied.
  t.deepEqual(appliedPenalties(proof, FEES, price.netUsdc), []);
  t.deepEqual(appliedPenalties(null, FEES, releaseNet), []);

  const base = { paymentProof: proof, fees: FEES, price, feePayer: 'MERCHANT' as const };
  t.deepEqual(settlementOf(base, releaseNet), { penalties: terms, creditedUsdc: price.creditUsdc });
  t.deepEqual(settlementOf({ ...base, feePayer: 'PAYEE', buyerShareBps: 10_000 }, releaseNet), {
    penalties: terms,
    creditedUsdc: price.creditUsdc - (price.netUsdc - releaseNet),
  });
  // A short release that is not the attestation's credits the order short by as much, whoever pays fees (as before penalties).
  t.deepEqual(settlementOf({ ...base, paymentProof: null }, releaseNet), { penalties: [], creditedUsdc: price.creditUsdc - (price.netUsdc - releaseNet) });
});
