/**
 * Document 2's funding arithmetic: the worked numbers, then properties over payout sizes,
 * both fees and the funding token's kind: the deposit is the least that covers payout plus
 * buffer after the fees, the merchant's fee rounds down, the buffer is capped; and the
 * deposit size once funded.
 */
import test from 'ava';
import fc from 'fast-check';
import { depositSize, feeOf, fundingBuffer, grossDeposit, payoutQuoteAmounts } from '../../../machines/payout/index.js';

const USDC = 1_000_000n;
const BPS = 10_000n;
const usdc = (text: string) => {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * USDC + BigInt(fraction.padEnd(6, '0'));
};

test('the worked numbers: 100 → deposit 104.123712, fee 1.041237; 1000 → buffer capped at 5, deposit 1036.082475, fee 10.360824', (t) => {
  t.deepEqual(payoutQuoteAmounts(usdc('100'), true, 100, 200), {
    bufferUsdc: usdc('1'),
    expectedUsdc: usdc('101'),
    depositUsdc: usdc('104.123712'),
    merchantFeeUsdc: usdc('1.041237'),
  });
  t.deepEqual(payoutQuoteAmounts(usdc('1000'), true, 100, 200), {
    bufferUsdc: usdc('5'),
    expectedUsdc: usdc('1005'),
    depositUsdc: usdc('1036.082475'),
    merchantFeeUsdc: usdc('10.360824'),
  });
  // BTC and other non-stable tokens: 2 %, capped at 10.
  t.is(fundingBuffer(usdc('100'), false), usdc('2'));
  t.is(fundingBuffer(usdc('500'), false), usdc('10'));
  t.is(fundingBuffer(usdc('1000'), false), usdc('10'));
  t.is(fundingBuffer(usdc('500'), true), usdc('5'));
  t.is(grossDeposit(usdc('101'), 0, 0), usdc('101'), 'no fees: the deposit is what is delivered');
});

const steps = [1n, 5n, 10n, 25n, 50n, 100n, 250n, 500n].map((whole) => whole * USDC);
const quoted = fc.constantFrom(...steps).chain((step) =>
  fc.record({
    payout: fc.integer({ min: 1, max: Number((1000n * USDC) / step) }).map((multiple) => step * BigInt(multiple)),
    merchantBps: fc.integer({ min: 0, max: 1000 }),
    serviceBps: fc.integer({ min: 0, max: 1000 }),
    stable: fc.boolean(),
  }),
);

test('property: the deposit is the least that covers payout plus buffer after both fees; the merchant fee rounds down; the buffer caps', (t) => {
  fc.assert(
    fc.property(quoted, ({ payout, merchantBps, serviceBps, stable }) => {
      const quote = payoutQuoteAmounts(payout, stable, merchantBps, serviceBps);
      const kept = BPS - BigInt(merchantBps) - BigInt(serviceBps);
      const [percent, cap] = stable ? [1n, 5n * USDC] : [2n, 10n * USDC];
      const share = (payout * percent) / 100n;
      return (
        quote.bufferUsdc === (share < cap ? share : cap) &&
        quote.bufferUsdc <= cap &&
        quote.expectedUsdc === payout + quote.bufferUsdc &&
        // deposit × (1 − fees) ≥ payout + buffer, and one unit less would not be.
        quote.depositUsdc * kept >= quote.expectedUsdc * BPS &&
        (quote.depositUsdc - 1n) * kept < quote.expectedUsdc * BPS &&
        // What is delivered once the provider takes each fee (each rounded down) still covers it.
        quote.depositUsdc - feeOf(quote.depositUsdc, merchantBps) - feeOf(quote.depositUsdc, serviceBps) >= quote.expectedUsdc &&
        quote.merchantFeeUsdc === (quote.depositUsdc * BigInt(merchantBps)) / BPS &&
        quote.merchantFeeUsdc * BPS <= quote.depositUsdc * BigInt(merchantBps)
      );
    }),
    { numRuns: 2_000 },
  );
  t.pass();
});

test('deposit size: covering is the payout; at most 1 USDC above a whole step rounds down to it; otherwise what arrived', (t) => {
  const step = usdc('100');
  for (const [received, payout, expected] of [
    ['100', '100', '100'],
    ['105', '100', '100'],
    ['1000', '200', '200'],
    ['100.7', '200', '100'],
    ['101', '200', '100'],
    ['101.000001', '200', '101.000001'],
    ['150', '200', '150'],
    ['200.5', '300', '200'],
    ['99', '200', '99'],
    ['0.5', '100', '0.5'],
    ['0', '100', '0'],
  ] as const)
    t.is(depositSize(usdc(received), usdc(payout), step), usdc(expected), `${received} on ${payout}`);
  t.is(depositSize(usdc('51'), usdc('100'), usdc('50')), usdc('50'), 'the payout’s own step');
});

test('property: the deposit size never exceeds the payout nor what arrived, and is within 1 USDC of what arrived', (t) => {
  fc.assert(
    fc.property(fc.constantFrom(...steps), fc.integer({ min: 1, max: 20 }), fc.bigInt({ min: 0n, max: 1200n * USDC }), (step, multiple, received) => {
      const payout = step * BigInt(multiple);
      const size = depositSize(received, payout, step);
      if (received >= payout) return size === payout;
      return size <= received && received - size <= USDC && (size === received || size % step === 0n);
    }),
    { numRuns: 2_000 },
  );
  t.pass();
});
