import test from 'ava';
import fc from 'fast-check';
import { bumpedFees, firstFees } from '../../../machines/transaction/fees.js';
import type { Fees } from '../../../machines/transaction/transaction-types.js';

const fees = (maxFeePerGas: bigint, maxPriorityFeePerGas: bigint): Fees => ({ maxFeePerGas, maxPriorityFeePerGas });

/** The true ceiling of value * 11 / 10, for any sign: what a node asks of a replacement. */
function nodeMinimum(value: bigint): bigint {
  const scaled = value * 11n;
  const quotient = scaled / 10n;
  return quotient * 10n < scaled ? quotient + 1n : quotient;
}

interface BumpCase {
  name: string;
  previous: Fees;
  network: Fees;
  cap: bigint;
  expected: Fees | null;
}

const bumpCases: BumpCase[] = [
  {
    name: '12.5% on both fields, rounded up (112.5 → 113, 11.25 → 12)',
    previous: fees(100n, 10n),
    network: fees(50n, 5n),
    cap: 1_000n,
    expected: fees(113n, 12n),
  },
  { name: 'an exact eighth needs no rounding', previous: fees(80n, 8n), network: fees(0n, 0n), cap: 1_000n, expected: fees(90n, 9n) },
  {
    name: 'rounding up on a large value (…001 × 9/8 = …001.125 → …002)',
    previous: fees(1_000_000_001n, 1n),
    network: fees(0n, 0n),
    cap: 10n ** 18n,
    expected: fees(1_125_000_002n, 2n),
  },
  {
    name: 'the network price wins on both fields when it is higher than the bump',
    previous: fees(100n, 10n),
    network: fees(200n, 20n),
    cap: 1_000n,
    expected: fees(200n, 20n),
  },
  {
    name: 'the network wins on the fee cap only; the tip is the bump',
    previous: fees(100n, 10n),
    network: fees(150n, 1n),
    cap: 1_000n,
    expected: fees(150n, 12n),
  },
  {
    name: 'the network wins on the tip only; the fee cap is the bump',
    previous: fees(100n, 10n),
    network: fees(90n, 15n),
    cap: 1_000n,
    expected: fees(113n, 15n),
  },
  { name: 'the cap limits the network price', previous: fees(100n, 10n), network: fees(200n, 20n), cap: 150n, expected: fees(150n, 20n) },
  {
    name: 'the cap limits the bump down to exactly the 10% a node asks',
    previous: fees(100n, 10n),
    network: fees(0n, 0n),
    cap: 110n,
    expected: fees(110n, 12n),
  },
  { name: 'null when the cap leaves one wei less than 10% on the fee cap', previous: fees(100n, 10n), network: fees(500n, 50n), cap: 109n, expected: null },
  { name: 'null when the previous attempt is already at the cap', previous: fees(100n, 10n), network: fees(0n, 0n), cap: 100n, expected: null },
  {
    name: 'null when the cap leaves less than 10% on the tip (fee cap room is fine)',
    previous: fees(100n, 120n),
    network: fees(0n, 0n),
    cap: 125n,
    expected: null,
  },
  { name: 'a tip the cap holds at exactly its 10% is taken', previous: fees(100n, 100n), network: fees(0n, 0n), cap: 110n, expected: fees(110n, 110n) },
  {
    name: 'the tip never goes above the fee cap: a network tip above the bumped fee cap raises the fee cap to it',
    previous: fees(100n, 10n),
    network: fees(100n, 500n),
    cap: 1_000n,
    expected: fees(500n, 500n),
  },
  {
    name: 'the tip never goes above the fee cap: under the cap both stop at it',
    previous: fees(100n, 10n),
    network: fees(100n, 500n),
    cap: 300n,
    expected: fees(300n, 300n),
  },
  { name: 'one wei: the bump (2) is also the node minimum (2)', previous: fees(1n, 1n), network: fees(0n, 0n), cap: 2n, expected: fees(2n, 2n) },
  { name: 'one wei at a cap of one: no room', previous: fees(1n, 1n), network: fees(0n, 0n), cap: 1n, expected: null },
  { name: 'zero fees bump to the network price', previous: fees(0n, 0n), network: fees(7n, 3n), cap: 100n, expected: fees(7n, 3n) },
];

for (const { name, previous, network, cap, expected } of bumpCases) {
  test(`bumpedFees: ${name}`, (t) => {
    t.deepEqual(bumpedFees(previous, network, cap), expected);
  });
}

interface FirstCase {
  name: string;
  network: Fees;
  cap: bigint;
  expected: Fees;
}

const firstCases: FirstCase[] = [
  { name: "the network's fees under the cap", network: fees(50n, 2n), cap: 100n, expected: fees(50n, 2n) },
  { name: 'the network fee cap exactly at the cap', network: fees(100n, 2n), cap: 100n, expected: fees(100n, 2n) },
  { name: 'the cap holds a higher network fee cap', network: fees(150n, 2n), cap: 100n, expected: fees(100n, 2n) },
  { name: 'the cap holds both fields, the tip at most the fee cap', network: fees(150n, 120n), cap: 100n, expected: fees(100n, 100n) },
  { name: 'a network tip above its own fee cap comes down to the fee cap', network: fees(50n, 80n), cap: 100n, expected: fees(50n, 50n) },
];

for (const { name, network, cap, expected } of firstCases) {
  test(`firstFees: ${name}`, (t) => {
    t.deepEqual(firstFees(network, cap), expected);
  });
}

const anyFees = (value: fc.Arbitrary<bigint>) => fc.record({ maxFeePerGas: value, maxPriorityFeePerGas: value });
/** Small values hit the rounding edges and the cap; large ones the wei amounts a chain uses. */
const wei = fc.oneof(fc.bigInt({ min: 0n, max: 50n }), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }));

test('property: for any bigint inputs a bump, when there is one, pays what a node asks, stays under the cap, and keeps the tip under the fee cap', (t) => {
  fc.assert(
    fc.property(anyFees(fc.oneof(fc.bigInt(), wei)), anyFees(fc.oneof(fc.bigInt(), wei)), fc.oneof(fc.bigInt(), wei), (previous, network, cap) => {
      const next = bumpedFees(previous, network, cap);
      if (next === null) return true;
      return (
        next.maxFeePerGas >= nodeMinimum(previous.maxFeePerGas) &&
        next.maxPriorityFeePerGas >= nodeMinimum(previous.maxPriorityFeePerGas) &&
        next.maxFeePerGas <= cap &&
        next.maxPriorityFeePerGas <= cap &&
        next.maxPriorityFeePerGas <= next.maxFeePerGas
      );
    }),
    { numRuns: 5_000 },
  );
  t.pass();
});

test('property: with fees of zero or more, a bump is refused only when the cap is under what a node asks', (t) => {
  fc.assert(
    fc.property(anyFees(wei), anyFees(wei), wei, (previous, network, cap) => {
      const room = cap >= nodeMinimum(previous.maxFeePerGas) && cap >= nodeMinimum(previous.maxPriorityFeePerGas);
      return (bumpedFees(previous, network, cap) !== null) === room;
    }),
    { numRuns: 5_000 },
  );
  t.pass();
});

test('property: first fees are never above the cap nor the tip above the fee cap', (t) => {
  fc.assert(
    fc.property(anyFees(fc.oneof(fc.bigInt(), wei)), fc.oneof(fc.bigInt(), wei), (network, cap) => {
      const first = firstFees(network, cap);
      return first.maxFeePerGas <= cap && first.maxFeePerGas <= network.maxFeePerGas && first.maxPriorityFeePerGas <= first.maxFeePerGas;
    }),
    { numRuns: 2_000 },
  );
  t.pass();
});
