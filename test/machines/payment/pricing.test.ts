/**
 * Worked numbers for machines/payment/pricing.ts, quotable by the docs.
 *
 * Fee schedule: protocolFeeBps 30, platformFeeBps 50 (0.8% in all, each fee rounded
 * down on chain). The buyer bears `share` of the fees: MERCHANT 0, PAYEE 10,000, SPLIT
 * the order's buyerFeeShareBps. The intent releases the smallest amount whose credit
 * (released less the buyer's share of the fees) covers what is owed.
 *
 * Owed 100 USDC (100_000_000 base units):
 *
 * | feePayer            | share | released   | protocol fee | platform fee | fees     | net        | credit |
 * |---------------------|-------|------------|--------------|--------------|----------|------------|--------|
 * | MERCHANT            |     0 | 100        | 0.3          | 0.5          | 0.8      | 99.2       | 100    |
 * | SPLIT (share 5000)  |  5000 | 100.401606 | 0.301204     | 0.502008     | 0.803212 | 99.598394  | 100    |
 * | PAYEE               | 10000 | 100.806451 | 0.302419     | 0.504032     | 0.806451 | 100        | 100    |
 * | any, zero-fee sched |   any | 100        | 0            | 0            | 0        | 100        | 100    |
 *
 * One base unit less than each release credits 99.999999: each release is the smallest.
 *
 * Owed 25 USDC (25_000_000):
 *
 * | feePayer            | released  | fees     | net       | credit |
 * |---------------------|-----------|----------|-----------|--------|
 * | MERCHANT            | 25        | 0.2      | 24.8      | 25     |
 * | SPLIT (share 5000)  | 25.100401 | 0.200803 | 24.899598 | 25     |
 * | PAYEE               | 25.201612 | 0.201612 | 25        | 25     |
 *
 * Fiat owed, rounded up to the cent: 25 USDC at 1.0137 (conversion rate 1.0137e18) is
 * 25.3425, so 25.35 (2535 cents); at 1.02 it is exactly 25.50 (2550 cents), not 25.51.
 * currencyPerUsdRate: 1.0137e18 → 1.013700 (1_013_700); 1.0137e18 + 1 → 1.013701.
 */
import test from 'ava';
import fc from 'fast-check';
import { buyerShareBps, creditOf, currencyPerUsdRate, feesOf, fiatOwed, priceIntent, type FeeSchedule } from '../../../machines/payment/index.js';
import { formatRate, formatUsdc } from '../../../machines/money.js';

const SCHEDULE: FeeSchedule = { protocolFeeBps: 30, platformFeeBps: 50 };
const ZERO_FEES: FeeSchedule = { protocolFeeBps: 0, platformFeeBps: 0 };
const HUNDRED = 100_000_000n;

/** The credit of a release, computed here from the rule itself rather than with creditOf. */
function referenceCredit(released: bigint, schedule: FeeSchedule, share: number): bigint {
  const protocol = (released * BigInt(schedule.protocolFeeBps)) / 10_000n;
  const platform = (released * BigInt(schedule.platformFeeBps)) / 10_000n;
  return released - ((protocol + platform) * BigInt(share)) / 10_000n;
}

test('buyerShareBps: MERCHANT bears every fee, PAYEE none, SPLIT the order share', (t) => {
  t.is(buyerShareBps('MERCHANT', 5000), 0);
  t.is(buyerShareBps('PAYEE', 0), 10_000);
  t.is(buyerShareBps('SPLIT', 5000), 5000);
  t.is(buyerShareBps('SPLIT', 2500), 2500);
});

test('feesOf rounds each fee down, as the chain does', (t) => {
  t.deepEqual(feesOf(HUNDRED, SCHEDULE), { protocolFeeUsdc: 300_000n, platformFeeUsdc: 500_000n });
  // 100.806451 USDC: 302419.35 and 504032.25 base units before rounding.
  t.deepEqual(feesOf(100_806_451n, SCHEDULE), { protocolFeeUsdc: 302_419n, platformFeeUsdc: 504_032n });
  // Below the fee's unit: nothing.
  t.deepEqual(feesOf(333n, SCHEDULE), { protocolFeeUsdc: 0n, platformFeeUsdc: 1n });
});

test('MERCHANT, owed 100: releases exactly 100, fees 0.3 + 0.5, net 99.2, credit 100', (t) => {
  const price = priceIntent(HUNDRED, SCHEDULE, buyerShareBps('MERCHANT', 0));
  t.deepEqual(price, {
    releasedUsdc: 100_000_000n,
    protocolFeeUsdc: 300_000n,
    platformFeeUsdc: 500_000n,
    totalFeeUsdc: 800_000n,
    netUsdc: 99_200_000n,
    creditUsdc: 100_000_000n,
  });
  t.is(formatUsdc(price.netUsdc), '99.2');
  t.is(referenceCredit(price.releasedUsdc - 1n, SCHEDULE, 0), 99_999_999n, 'one unit less does not cover');
});

test('PAYEE, owed 100: releases the smallest amount whose net is 100 (100.806451)', (t) => {
  const price = priceIntent(HUNDRED, SCHEDULE, buyerShareBps('PAYEE', 0));
  t.deepEqual(price, {
    releasedUsdc: 100_806_451n,
    protocolFeeUsdc: 302_419n,
    platformFeeUsdc: 504_032n,
    totalFeeUsdc: 806_451n,
    netUsdc: 100_000_000n,
    creditUsdc: 100_000_000n,
  });
  // The smallest: one base unit less nets under 100.
  const less = price.releasedUsdc - 1n;
  const lessFees = feesOf(less, SCHEDULE);
  t.is(less - lessFees.protocolFeeUsdc - lessFees.platformFeeUsdc, 99_999_999n);
  t.true(referenceCredit(less, SCHEDULE, 10_000) < HUNDRED);
});

test('SPLIT 50%, owed 100: releases 100.401606, between MERCHANT and PAYEE; the buyer bears half the fees', (t) => {
  const share = buyerShareBps('SPLIT', 5000);
  const price = priceIntent(HUNDRED, SCHEDULE, share);
  t.deepEqual(price, {
    releasedUsdc: 100_401_606n,
    protocolFeeUsdc: 301_204n,
    platformFeeUsdc: 502_008n,
    totalFeeUsdc: 803_212n,
    netUsdc: 99_598_394n,
    creditUsdc: 100_000_000n,
  });
  t.is(price.releasedUsdc - HUNDRED, price.totalFeeUsdc / 2n, 'the buyer pays half the fees on top');
  t.true(referenceCredit(price.releasedUsdc - 1n, SCHEDULE, share) < HUNDRED);
  const merchant = priceIntent(HUNDRED, SCHEDULE, 0);
  const payee = priceIntent(HUNDRED, SCHEDULE, 10_000);
  t.true(merchant.releasedUsdc < price.releasedUsdc && price.releasedUsdc < payee.releasedUsdc);
  t.true(merchant.netUsdc < price.netUsdc && price.netUsdc < payee.netUsdc);
});

test('owed 25: the table rows for each fee payer', (t) => {
  const rows: Array<[share: number, released: bigint, fees: bigint, net: bigint]> = [
    [0, 25_000_000n, 200_000n, 24_800_000n],
    [5000, 25_100_401n, 200_803n, 24_899_598n],
    [10_000, 25_201_612n, 201_612n, 25_000_000n],
  ];
  for (const [share, released, fees, net] of rows) {
    const price = priceIntent(25_000_000n, SCHEDULE, share);
    t.is(price.releasedUsdc, released, `released at share ${share}`);
    t.is(price.totalFeeUsdc, fees, `fees at share ${share}`);
    t.is(price.netUsdc, net, `net at share ${share}`);
    t.is(price.creditUsdc, 25_000_000n, `credit at share ${share}`);
    t.true(referenceCredit(released - 1n, SCHEDULE, share) < 25_000_000n, `smallest at share ${share}`);
  }
});

test('a zero-fee schedule releases what is owed for every fee payer, fees zero', (t) => {
  for (const share of [0, 5000, 10_000]) {
    t.deepEqual(priceIntent(HUNDRED, ZERO_FEES, share), {
      releasedUsdc: HUNDRED,
      protocolFeeUsdc: 0n,
      platformFeeUsdc: 0n,
      totalFeeUsdc: 0n,
      netUsdc: HUNDRED,
      creditUsdc: HUNDRED,
    });
  }
});

test('creditOf: all of the release but the buyer share of the fees, the share rounded down', (t) => {
  t.is(creditOf(HUNDRED, SCHEDULE, 0), HUNDRED);
  t.is(creditOf(HUNDRED, SCHEDULE, 10_000), 99_200_000n);
  t.is(creditOf(HUNDRED, SCHEDULE, 5000), 99_600_000n);
  // fees 1 + 1 units at share 33.33%: the buyer share 0.67 rounds down to 0, so the credit rounds up.
  t.is(creditOf(375n, SCHEDULE, 3333), 375n);
});

test('fiatOwed rounds up to the cent; an exact cent is not rounded up', (t) => {
  t.is(fiatOwed(25_000_000n, 1_013_700_000_000_000_000n), 2535n, '25.3425 is owed as 25.35');
  t.is(fiatOwed(25_000_000n, 1_020_000_000_000_000_000n), 2550n, '25.50 exactly stays 25.50');
  t.is(fiatOwed(25_000_000n, 1_000_000_000_000_000_000n), 2500n);
  t.is(fiatOwed(1n, 1_000_000_000_000_000_000n), 1n, 'a millionth of a dollar is still a cent owed');
  t.is(fiatOwed(0n, 1_013_700_000_000_000_000n), 0n);
  // Just over a whole cent by one unit of the rate: rounded up.
  t.is(fiatOwed(10_000n, 1_000_000_000_000_000_001n), 2n);
  t.is(fiatOwed(10_000n, 1_000_000_000_000_000_000n), 1n);
});

test('currencyPerUsdRate: the 18-decimal rate to 6 decimals, rounded up', (t) => {
  t.is(currencyPerUsdRate(1_013_700_000_000_000_000n), 1_013_700n);
  t.is(formatRate(currencyPerUsdRate(1_013_700_000_000_000_000n)), '1.013700');
  t.is(currencyPerUsdRate(1_013_700_000_000_000_001n), 1_013_701n);
  t.is(currencyPerUsdRate(1_013_700_999_999_999_999n), 1_013_701n);
  t.is(currencyPerUsdRate(83_500_000_000_000_000_000n), 83_500_000n);
});

test('priceIntent refuses a zero or negative amount owed', (t) => {
  t.throws(() => priceIntent(0n, SCHEDULE, 0), { instanceOf: RangeError });
  t.throws(() => priceIntent(-1n, SCHEDULE, 10_000), { instanceOf: RangeError });
});

test('priceIntent refuses fees of 100% or more, and takes 99.99%', (t) => {
  t.throws(() => priceIntent(HUNDRED, { protocolFeeBps: 5000, platformFeeBps: 5000 }, 0), { instanceOf: RangeError });
  t.throws(() => priceIntent(HUNDRED, { protocolFeeBps: 10_000, platformFeeBps: 1 }, 0), { instanceOf: RangeError });
  const steep = priceIntent(1_000_000n, { protocolFeeBps: 4999, platformFeeBps: 5000 }, 10_000);
  t.true(steep.netUsdc >= 1_000_000n);
  t.true(referenceCredit(steep.releasedUsdc - 1n, { protocolFeeBps: 4999, platformFeeBps: 5000 }, 10_000) < 1_000_000n);
});

test('property: the release is the smallest that covers what is owed, and net plus fees is the release', (t) => {
  const arbitrary = fc
    .record({
      owed: fc.bigInt({ min: 1n, max: 10n ** 13n }),
      protocolFeeBps: fc.integer({ min: 0, max: 5000 }),
      platformFeeBps: fc.integer({ min: 0, max: 4999 }),
      share: fc.integer({ min: 0, max: 10_000 }),
    })
    .filter(({ protocolFeeBps, platformFeeBps }) => protocolFeeBps + platformFeeBps < 10_000);
  t.notThrows(() =>
    fc.assert(
      fc.property(arbitrary, ({ owed, protocolFeeBps, platformFeeBps, share }) => {
        const schedule = { protocolFeeBps, platformFeeBps };
        const price = priceIntent(owed, schedule, share);
        const fees = feesOf(price.releasedUsdc, schedule);
        return (
          referenceCredit(price.releasedUsdc, schedule, share) >= owed &&
          referenceCredit(price.releasedUsdc - 1n, schedule, share) < owed &&
          price.creditUsdc === referenceCredit(price.releasedUsdc, schedule, share) &&
          price.releasedUsdc >= owed &&
          price.protocolFeeUsdc === fees.protocolFeeUsdc &&
          price.platformFeeUsdc === fees.platformFeeUsdc &&
          price.totalFeeUsdc === price.protocolFeeUsdc + price.platformFeeUsdc &&
          price.netUsdc + price.totalFeeUsdc === price.releasedUsdc &&
          // PAYEE: the merchant nets what is owed.
          (share !== 10_000 || price.netUsdc >= owed)
        );
      }),
      { numRuns: 2000 },
    ),
  );
});
