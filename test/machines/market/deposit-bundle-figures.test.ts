/** The deposit bundle's figures from hand-made facts: each movement's state, the fund events, the profit after each fulfilment and the end of each day. */
import test from 'ava';
import { depositFactOf, type IntentRecordDoc } from '../../../actors/market/index.js';
import { dailySnapshotsOf, fundEventsOf, movementsOf, profitSnapshotsOf } from '../../../machines/market/deposit-bundle-figures.js';
import type { ChainFact } from '../../../proto/gen/peer/indexer/v1/indexer.js';

const USDC = 1_000_000n;
const DAY = 86_400;
/** 2026-11-20T00:00:00Z. */
const DAY0 = Date.UTC(2026, 10, 20) / 1000;
const I1 = `0x${'1'.repeat(64)}`;
const I2 = `0x${'2'.repeat(64)}`;

let sequence = 0;
const fact = (at: number, event: ChainFact['event']): ChainFact => ({
  sequence: BigInt(++sequence),
  id: `f${sequence}`,
  chainId: 31337n,
  blockNumber: BigInt(sequence),
  blockHash: '0x',
  transactionHash: `0x${sequence.toString(16).padStart(64, '0')}`,
  logIndex: 0,
  contract: '0x',
  blockTimestamp: BigInt(at),
  retracted: false,
  logEpoch: 'e',
  event,
});
const units = (usdc: bigint) => (usdc * USDC).toString();

// Day 0: 1,000 in; 200 locked (I1); 150 of it taken, 50 back. Day 1: 500 added; 100 locked (I2) and given back. Day 2: everything withdrawn, closed.
const FACTS = [
  fact(DAY0 + 10, {
    $case: 'depositReceived',
    value: {
      depositId: '4',
      depositor: '0xm',
      token: '0xt',
      amount: units(1_000n),
      intentAmountMin: '1',
      intentAmountMax: '1',
      delegate: '0x',
      intentGuardian: '0x',
    },
  }),
  fact(DAY0 + 20, { $case: 'depositPaymentMethodSet', value: { depositId: '4', paymentMethod: '0x', payeeDetails: '0x' } }),
  fact(DAY0 + 30, { $case: 'fundsLocked', value: { depositId: '4', intentHash: I1, amount: units(200n), expiryTime: 0n } }),
  fact(DAY0 + 40, {
    $case: 'fundsUnlockedAndTransferred',
    value: { depositId: '4', intentHash: I1, unlockedAmount: units(200n), transferredAmount: units(150n), to: '0x' },
  }),
  fact(DAY0 + DAY + 10, { $case: 'depositFundsAdded', value: { depositId: '4', depositor: '0xm', amount: units(500n) } }),
  fact(DAY0 + DAY + 20, { $case: 'fundsLocked', value: { depositId: '4', intentHash: I2, amount: units(100n), expiryTime: 0n } }),
  fact(DAY0 + DAY + 30, { $case: 'fundsUnlocked', value: { depositId: '4', intentHash: I2, amount: units(100n) } }),
  fact(DAY0 + 2 * DAY + 10, { $case: 'depositWithdrawn', value: { depositId: '4', depositor: '0xm', amount: units(1_350n) } }),
  fact(DAY0 + 2 * DAY + 10, { $case: 'depositClosed', value: { depositId: '4', depositor: '0xm' } }),
];

test('every movement with the state it left, by the escrow’s arithmetic; fund events alone', (t) => {
  const movements = movementsOf(FACTS.flatMap((fact) => depositFactOf(fact) ?? []));
  t.deepEqual(
    movements.map((movement) => [
      movement.type,
      movement.amount / USDC,
      movement.intentHash,
      movement.after.available / USDC,
      movement.after.locked / USDC,
      movement.after.totalDeposited / USDC,
      movement.after.totalTaken / USDC,
      movement.after.intentsSignaled,
      movement.after.intentsFulfilled,
    ]),
    [
      ['DEPOSIT_RECEIVED', 1_000n, null, 1_000n, 0n, 1_000n, 0n, 0, 0],
      // 1,000 − 200.
      ['LOCKED', 200n, I1, 800n, 200n, 1_000n, 0n, 1, 0],
      // 150 of the 200 taken, the other 50 back: 800 + 50.
      ['TAKEN', 150n, I1, 850n, 0n, 1_000n, 150n, 1, 1],
      ['FUNDS_ADDED', 500n, null, 1_350n, 0n, 1_500n, 150n, 1, 1],
      ['LOCKED', 100n, I2, 1_250n, 100n, 1_500n, 150n, 2, 1],
      ['UNLOCKED', 100n, I2, 1_350n, 0n, 1_500n, 150n, 2, 1],
      ['WITHDRAWN', 1_350n, null, 0n, 0n, 1_500n, 150n, 2, 1],
      ['CLOSED', 0n, null, 0n, 0n, 1_500n, 150n, 2, 1],
    ],
  );
  t.deepEqual(
    fundEventsOf(movements).map((movement) => movement.type),
    ['DEPOSIT_RECEIVED', 'FUNDS_ADDED', 'WITHDRAWN', 'CLOSED'],
  );
  t.is(movements[0]!.transactionHash, FACTS[0]!.transactionHash);
});

const record = (id: string, status: IntentRecordDoc['status'], fulfilledAt: number | null, released: bigint, profit: string | null): IntentRecordDoc => ({
  _id: id,
  depositId: '4',
  maker: '0xm',
  paymentMethod: '0x',
  fiatCurrency: '0x',
  amount: '0',
  conversionRate: '0',
  status,
  signaledAt: 0,
  fulfilledAt,
  released: (released * USDC).toString(),
  netToTaker: '0',
  protocolFee: '0',
  referrerFee: '0',
  fulfilmentFactId: fulfilledAt === null ? null : `f-${id}`,
  referenceRate: profit === null ? null : '1000000',
  realizedProfitUsd: profit,
  asOfSequence: 1,
  updatedAt: 0,
});

test('profit after each fulfilment, oldest first, and the deposit at the end of each day', (t) => {
  const records = [
    record(I2, 'PRUNED', null, 0n, null),
    record('0xb', 'FULFILLED', DAY0 + DAY + 50, 10n, '-250000'),
    record(I1, 'FULFILLED', DAY0 + 40, 150n, '815217'),
  ];
  const profits = profitSnapshotsOf(records);
  t.deepEqual(
    profits.map((snapshot) => [
      snapshot.intentHash,
      snapshot.amountTaken / USDC,
      snapshot.realizedProfitUsd,
      snapshot.cumulativeAmountTaken / USDC,
      snapshot.cumulativeRealizedProfitUsd,
    ]),
    [
      [I1, 150n, 815_217n, 150n, 815_217n],
      // 0.815217 − 0.25.
      ['0xb', 10n, -250_000n, 160n, 565_217n],
    ],
  );

  const movements = movementsOf(FACTS.flatMap((fact) => depositFactOf(fact) ?? []));
  // Today is day 3: the last 3 days are days 1 to 3.
  const days = dailySnapshotsOf(movements, profits, DAY0 + 10, DAY0 + 3 * DAY + 5, 3);
  t.deepEqual(
    days.map((day) => [day.date, day.state.available / USDC, day.state.totalDeposited / USDC, day.state.intentsSignaled, day.realizedProfitUsd]),
    [
      ['2026-11-21', 1_350n, 1_500n, 2, 565_217n],
      ['2026-11-22', 0n, 1_500n, 2, 565_217n],
      ['2026-11-23', 0n, 1_500n, 2, 565_217n],
    ],
  );
  // A limit beyond its life starts at the day it was created.
  const all = dailySnapshotsOf(movements, profits, DAY0 + 10, DAY0 + 3 * DAY + 5, 366);
  t.deepEqual(
    all.map((day) => [day.date, day.state.available / USDC, day.realizedProfitUsd]),
    [
      ['2026-11-20', 850n, 815_217n],
      ['2026-11-21', 1_350n, 565_217n],
      ['2026-11-22', 0n, 565_217n],
      ['2026-11-23', 0n, 565_217n],
    ],
  );
  t.deepEqual(dailySnapshotsOf(movements, profits, DAY0 + 10, DAY0 - DAY, 30), [], 'a deposit made after the node’s today has no day yet');
});
