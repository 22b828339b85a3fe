/**
 * The leaderboard's figures checked against a hand-computed fixture (issue 17): four makers,
 * five deposits and nine intents, every expected number written out by hand with its
 * arithmetic. The records go through intentRecord (the ledger's own pure half) from GetIntent
 * answers, so the profit rule is the one the ledger applies.
 */
import test from 'ava';
import { keccak256, toBytes, zeroAddress } from 'viem';
import { intentRecord, type IntentRecordDoc, type LiquidityDepositDoc } from '../../../actors/market/index.js';
import { createLogger } from '../../../actors/index.js';
import { Leaderboard, type LeaderboardQuery } from '../../../gateway/market/leaderboard.js';
import { IntentStatus } from '../../../proto/gen/peer/indexer/v1/indexer.js';

const USDC = 1_000_000n;
const RATE = 10n ** 18n;
const DAY = 86_400;
/** The node's clock: 2026-11-23T12:00:00Z. */
const NOW = Date.UTC(2026, 10, 23, 12) / 1000;
const ESCROW = '0x00000000000000000000000000000000000000E5';
const hash = (text: string) => keccak256(toBytes(text)).toLowerCase();

const A = '0xaaaa00000000000000000000000000000000000a';
const B = '0xbbbb00000000000000000000000000000000000b';
const C = '0xcccc00000000000000000000000000000000000c';
const D = '0xdddd00000000000000000000000000000000000d';

function deposit(
  id: string,
  depositor: string,
  fields: { deposited: bigint; available: bigint; closed?: boolean; signaled: number; fulfilled: number; createdAt: number },
): LiquidityDepositDoc {
  return {
    _id: id,
    depositor,
    token: zeroAddress,
    available: fields.available.toString(),
    locked: '0',
    intentMin: USDC.toString(),
    intentMax: (1_000n * USDC).toString(),
    closed: fields.closed ?? false,
    isPrivate: false,
    sellerAutomatedRelease: false,
    disputeProtection: false,
    methods: [],
    rateManager: null,
    intentsSignaled: fields.signaled,
    intentsFulfilled: fields.fulfilled,
    totalDeposited: fields.deposited.toString(),
    totalTaken: '0',
    createdAt: fields.createdAt,
    chainUpdatedAt: fields.createdAt,
    offers: [],
    asOfSequence: 1,
    updatedAt: 0,
  };
}

const DEPOSITS = [
  deposit('1', A, { deposited: 1_000n * USDC, available: 600n * USDC, signaled: 5, fulfilled: 4, createdAt: NOW - 100 * DAY }),
  deposit('2', A, { deposited: 500n * USDC, available: 0n, closed: true, signaled: 0, fulfilled: 0, createdAt: NOW - 50 * DAY }),
  deposit('3', '0xBBBB00000000000000000000000000000000000B', {
    deposited: 3_000n * USDC,
    available: 2_800n * USDC,
    signaled: 3,
    fulfilled: 2,
    createdAt: NOW - 10 * DAY,
  }),
  deposit('4', C, { deposited: 2_000n * USDC, available: 2_000n * USDC, signaled: 0, fulfilled: 0, createdAt: NOW - 5 * DAY }),
  deposit('5', D, { deposited: 100n * USDC, available: 90n * USDC, signaled: 1, fulfilled: 1, createdAt: NOW - 9 * DAY }),
];

interface Intent {
  id: string;
  maker: string;
  depositId: string;
  platform: string;
  currency: string;
  /** Fiat per USDC, as the taker signalled it. */
  rate: bigint;
  status: IntentStatus;
  /** What left the deposit; the taker got it less `fee`. */
  released?: bigint;
  fee?: bigint;
  at?: number;
  /** Fiat per USD, 6 decimals; null for a currency the rate source does not price. */
  reference?: bigint | null;
}

function record(intent: Intent): IntentRecordDoc {
  const fulfilled = intent.status === IntentStatus.INTENT_STATUS_FULFILLED;
  const fee = intent.fee ?? 0n;
  return intentRecord({
    answer: {
      intent: {
        intentHash: hash(intent.id),
        escrow: ESCROW,
        depositId: intent.depositId,
        paymentMethod: hash(intent.platform),
        owner: zeroAddress,
        to: zeroAddress,
        amount: (intent.released ?? 20n * USDC).toString(),
        fiatCurrency: hash(intent.currency),
        conversionRate: intent.rate.toString(),
        timestamp: BigInt((intent.at ?? NOW) - 600),
      },
      status: intent.status,
      fulfilled: fulfilled
        ? { intentHash: hash(intent.id), fundsTransferredTo: zeroAddress, amount: (intent.released! - fee).toString(), isManualRelease: false }
        : undefined,
      protocolFee: fee.toString(),
      referrerFee: '0',
      asOfSequence: 1n,
    },
    fulfilment: fulfilled ? { factId: intent.id, sequence: 1, fulfilledAt: intent.at! } : null,
    referenceRate: intent.reference ?? null,
    maker: intent.maker,
    asOfSequence: 1,
    updatedAt: 0,
  });
}

const FULFILLED = IntentStatus.INTENT_STATUS_FULFILLED;
const INTENTS = [
  // A. i1: 100 released (99.5 to the taker, 0.5 protocol fee) at 1.02 USD, reference 1: 100 × 0.02 = +2.000000.
  record({
    id: 'i1',
    maker: A,
    depositId: '1',
    platform: 'venmo',
    currency: 'USD',
    rate: (102n * RATE) / 100n,
    status: FULFILLED,
    released: 100n * USDC,
    fee: USDC / 2n,
    at: NOW - 2 * DAY,
    reference: 1_000_000n,
  }),
  // i2: 200 at 0.925 EUR, reference 0.92: 200 × 0.005 / 0.92 = 1.0869565… → +1.086956.
  record({
    id: 'i2',
    maker: A,
    depositId: '1',
    platform: 'revolut',
    currency: 'EUR',
    rate: (925n * RATE) / 1000n,
    status: FULFILLED,
    released: 200n * USDC,
    at: NOW - 20 * DAY,
    reference: 920_000n,
  }),
  // i3: 50 at 0.91 EUR, reference 0.92: 50 × −0.01 / 0.92 = −0.5434782… → −0.543479 (toward −∞).
  record({
    id: 'i3',
    maker: A,
    depositId: '1',
    platform: 'revolut',
    currency: 'EUR',
    rate: (91n * RATE) / 100n,
    status: FULFILLED,
    released: 50n * USDC,
    at: NOW - 60 * DAY,
    reference: 920_000n,
  }),
  // i6: 10 at 1.01 USD: +0.100000, 95 days ago (inside lifetime only).
  record({
    id: 'i6',
    maker: A,
    depositId: '1',
    platform: 'venmo',
    currency: 'USD',
    rate: (101n * RATE) / 100n,
    status: FULFILLED,
    released: 10n * USDC,
    at: NOW - 95 * DAY,
    reference: 1_000_000n,
  }),
  record({ id: 'i7', maker: A, depositId: '1', platform: 'venmo', currency: 'USD', rate: RATE, status: IntentStatus.INTENT_STATUS_PRUNED }),
  // B. i4: 100 at 1.005 USD: +0.500000, yesterday.
  record({
    id: 'i4',
    maker: B,
    depositId: '3',
    platform: 'cashapp',
    currency: 'USD',
    rate: (1005n * RATE) / 1000n,
    status: FULFILLED,
    released: 100n * USDC,
    at: NOW - DAY,
    reference: 1_000_000n,
  }),
  // i8: 1 at 1.00: 0, exactly seven days ago (the 7d window's first second counts).
  record({
    id: 'i8',
    maker: B,
    depositId: '3',
    platform: 'cashapp',
    currency: 'USD',
    rate: RATE,
    status: FULFILLED,
    released: USDC,
    at: NOW - 7 * DAY,
    reference: 1_000_000n,
  }),
  record({ id: 'i5', maker: B, depositId: '3', platform: 'cashapp', currency: 'USD', rate: RATE, status: IntentStatus.INTENT_STATUS_SIGNALED }),
  // D. i9: 10 in JPY, which the rate source does not price: volume, no profit; eight days ago.
  record({
    id: 'i9',
    maker: D,
    depositId: '5',
    platform: 'wise',
    currency: 'JPY',
    rate: 150n * RATE,
    status: FULFILLED,
    released: 10n * USDC,
    at: NOW - 8 * DAY,
    reference: null,
  }),
];

function board(intents = INTENTS, deposits = DEPOSITS): Leaderboard {
  return new Leaderboard(
    {
      ledger: { all: async () => intents },
      liquidity: { allDeposits: async () => deposits },
      now: () => NOW * 1000,
      logger: createLogger({ level: 'silent' }),
    },
    { chainId: 8453, escrow: ESCROW, cacheMs: 15_000 },
  );
}

const query = (overrides: Partial<LeaderboardQuery> = {}): LeaderboardQuery => ({
  sortBy: 'profit',
  sortOrder: 'desc',
  window: 'lifetime',
  limit: 25,
  offset: 0,
  ...overrides,
});
const id = (maker: string) => `8453_${maker}`;
const figures = (page: Awaited<ReturnType<Leaderboard['page']>>) =>
  page.makers.map((row) => [row.makerId, row.rank, row.realizedProfitUsd, row.totalAmountTaken]);

test('lifetime rows: profit, volume and liquidity of each maker, worked by hand', async (t) => {
  const page = await board().page(query());
  // Profit: A 2 + 1.086956 − 0.543479 + 0.1 = 2.643477; B 0.5 + 0 = 0.5; C and D 0 (D's JPY has no reference), sharing rank 3, C first by address.
  // Volume: A 100 + 200 + 50 + 10 = 360; B 100 + 1 = 101; C 0; D 10.
  t.deepEqual(figures(page), [
    [id(A), 1, '2.643477', '360'],
    [id(B), 2, '0.5', '101'],
    [id(C), 3, '0', '0'],
    [id(D), 3, '0', '10'],
  ]);
  t.deepEqual(page.makers[0], {
    rank: 1,
    makerId: id(A),
    chainId: 8453,
    makerAddress: '0xAaAA00000000000000000000000000000000000A',
    realizedProfitUsd: '2.643477',
    totalAmountTaken: '360',
    // 1,000 + 500 (closed, still lifetime liquidity); available only from the open one.
    totalDeposited: '1500',
    availableLiquidity: '600',
    depositCount: 2,
    activeDepositCount: 1,
    intentsSignaled: 5,
    intentsFulfilled: 4,
    // 4 / 5 = 8,000 bps.
    successRateBps: 8000,
    firstDepositAt: new Date((NOW - 100 * DAY) * 1000).toISOString(),
    lastFulfilledAt: new Date((NOW - 2 * DAY) * 1000).toISOString(),
  });
  // B: 2 of 3 = 6,666.67 → 6666 (down); its deposit names it in another case, and it is one maker (checksummed, this address is all lower case).
  t.like(page.makers[1], {
    makerAddress: '0xbbbb00000000000000000000000000000000000b',
    successRateBps: 6666,
    totalDeposited: '3000',
    availableLiquidity: '2800',
  });
  t.like(page.makers[2], { successRateBps: 0, lastFulfilledAt: null });
  t.like(page.makers[3], { successRateBps: 10000 });
  t.like(page, {
    chainId: 8453,
    window: 'lifetime',
    windowStart: null,
    sortBy: 'profit',
    sortOrder: 'desc',
    generatedAt: '2026-11-23T12:00:00.000Z',
    pagination: { limit: 25, offset: 0, total: 4, hasMore: false },
  });
});

test('each metric sorts and ranks: volume A 360, B 101, D 10, C 0; liquidity B 3000, C 2000, A 1500, D 100', async (t) => {
  const leaderboard = board();
  t.deepEqual(
    (await leaderboard.page(query({ sortBy: 'volume' }))).makers.map((row) => [row.makerId, row.rank]),
    [
      [id(A), 1],
      [id(B), 2],
      [id(D), 3],
      [id(C), 4],
    ],
  );
  t.deepEqual(
    (await leaderboard.page(query({ sortBy: 'liquidity' }))).makers.map((row) => [row.makerId, row.rank, row.totalDeposited]),
    [
      [id(B), 1, '3000'],
      [id(C), 2, '2000'],
      [id(A), 3, '1500'],
      [id(D), 4, '100'],
    ],
  );
  // Ascending turns the order, not the ranks; equals stay in address order.
  t.deepEqual(
    (await leaderboard.page(query({ sortOrder: 'asc' }))).makers.map((row) => [row.makerId, row.rank]),
    [
      [id(C), 3],
      [id(D), 3],
      [id(B), 2],
      [id(A), 1],
    ],
  );
  const second = await leaderboard.page(query({ limit: 2, offset: 1 }));
  t.deepEqual(
    second.makers.map((row) => row.makerId),
    [id(B), id(C)],
  );
  t.deepEqual(second.pagination, { limit: 2, offset: 1, total: 4, hasMore: true });
  t.deepEqual((await leaderboard.page(query({ offset: 4 }))).makers, []);
});

test('windows scope volume and profit; liquidity, success rate and counts stay lifetime', async (t) => {
  const leaderboard = board();
  // 7d (from 2026-11-16T12:00Z): A i1 only → 100, +2; B i4 and i8 (at the window's first second) → 101, +0.5; D's i9 (8 days) is out.
  const week = await leaderboard.page(query({ window: '7d', sortBy: 'volume' }));
  t.is(week.windowStart, '2026-11-16T12:00:00.000Z');
  t.deepEqual(figures(week), [
    [id(B), 1, '0.5', '101'],
    [id(A), 2, '2', '100'],
    [id(C), 3, '0', '0'],
    [id(D), 3, '0', '0'],
  ]);
  t.like(week.makers[1], {
    totalDeposited: '1500',
    intentsSignaled: 5,
    intentsFulfilled: 4,
    successRateBps: 8000,
    depositCount: 2,
    lastFulfilledAt: new Date((NOW - 2 * DAY) * 1000).toISOString(),
  });
  // 30d: A i1 + i2 → 300, 2 + 1.086956 = 3.086956; D's i9 is in → 10.
  t.deepEqual(figures(await leaderboard.page(query({ window: '30d' }))), [
    [id(A), 1, '3.086956', '300'],
    [id(B), 2, '0.5', '101'],
    [id(C), 3, '0', '0'],
    [id(D), 3, '0', '10'],
  ]);
  // 90d: A adds i3 → 350, 3.086956 − 0.543479 = 2.543477; i6 (95 days) stays out.
  t.deepEqual(figures(await leaderboard.page(query({ window: '90d' })))[0], [id(A), 1, '2.543477', '350']);
});

test('the summary: lifetime totals, and the average success rate of the makers with an intent', async (t) => {
  t.deepEqual(await board().summary(), {
    chainId: 8453,
    generatedAt: '2026-11-23T12:00:00.000Z',
    totalMakers: 4,
    // A, B and D have signalled intents; C has none.
    makersWithIntents: 3,
    // 2.643477 + 0.5.
    totalRealizedProfitUsd: '3.143477',
    // 360 + 101 + 10.
    totalAmountTaken: '471',
    // 1,500 + 3,000 + 2,000 + 100.
    totalDeposited: '6600',
    totalDeposits: 5,
    activeDeposits: 4,
    totalIntentsSignaled: 9,
    totalIntentsFulfilled: 7,
    // (8,000 + 6,666 + 10,000) / 3 = 8,222 (down).
    averageSuccessRateBps: 8222,
  });
});

test('a maker’s rank in each metric and window; an unknown maker or another chain is MAKER_NOT_FOUND', async (t) => {
  const leaderboard = board();
  t.like(await leaderboard.rank(id(A), 'lifetime'), {
    makerId: id(A),
    totalMakers: 4,
    ranks: { profit: 1, volume: 1, liquidity: 3 },
    maker: { realizedProfitUsd: '2.643477' },
  });
  t.like(await leaderboard.rank(`8453_${A.toUpperCase().replace('0X', '0x')}`, '7d'), {
    makerId: id(A),
    window: '7d',
    ranks: { profit: 1, volume: 2, liquidity: 3 },
    maker: { totalAmountTaken: '100' },
  });
  t.like(await leaderboard.rank(id(D), '7d'), { ranks: { profit: 3, volume: 3, liquidity: 4 } });
  for (const unknown of [`8453_0x${'e'.repeat(40)}`, `1_${A}`]) {
    await t.throwsAsync(leaderboard.rank(unknown, 'lifetime'), { message: `No maker ${unknown} on this leaderboard` });
    await t.throwsAsync(leaderboard.detail(unknown), { message: `No maker ${unknown} on this leaderboard` });
  }
  t.like(await leaderboard.rank(id(C), 'lifetime'), { ranks: { profit: 3, volume: 4, liquidity: 2 } }, 'a maker without a fulfilment is ranked too');
});

test('a maker’s detail: breakdowns by platform and currency, daily profit snapshots and its deposits', async (t) => {
  const detail = await board().detail(id(A));
  t.like(detail, { makerId: id(A), ranks: { profit: 1, volume: 1, liquidity: 3 }, maker: { totalAmountTaken: '360' } });
  t.deepEqual(detail.platforms, [
    // revolut: i2 and i3 → 250; 1.086956 − 0.543479 = 0.543477.
    {
      paymentMethodHash: hash('revolut'),
      paymentPlatform: 'revolut',
      intentsSignaled: 2,
      intentsFulfilled: 2,
      intentsPruned: 0,
      totalAmountTaken: '250',
      realizedProfitUsd: '0.543477',
    },
    // venmo: i1, i6 and the pruned i7 → 110; 2 + 0.1 = 2.1.
    {
      paymentMethodHash: hash('venmo'),
      paymentPlatform: 'venmo',
      intentsSignaled: 3,
      intentsFulfilled: 2,
      intentsPruned: 1,
      totalAmountTaken: '110',
      realizedProfitUsd: '2.1',
    },
  ]);
  t.deepEqual(detail.currencies, [
    // 200 × 0.925 + 50 × 0.91 = 185 + 45.50.
    {
      currencyCode: hash('EUR'),
      currency: 'EUR',
      intentsSignaled: 2,
      intentsFulfilled: 2,
      intentsPruned: 0,
      totalAmountTaken: '250',
      realizedProfitUsd: '0.543477',
      fiatAmount: '230.50',
    },
    // 100 × 1.02 + 10 × 1.01 = 102 + 10.10.
    {
      currencyCode: hash('USD'),
      currency: 'USD',
      intentsSignaled: 3,
      intentsFulfilled: 2,
      intentsPruned: 1,
      totalAmountTaken: '110',
      realizedProfitUsd: '2.1',
      fiatAmount: '112.10',
    },
  ]);
  // 30 days, 2026-10-25 to 2026-11-23. Before them: i3 and i6, −0.543479 + 0.1 = −0.443479.
  const days = detail.profitSnapshots;
  t.is(days.length, 30);
  t.deepEqual([days[0]!.date, days.at(-1)!.date], ['2026-10-25', '2026-11-23']);
  t.deepEqual(days[0], { date: '2026-10-25', fulfilments: 0, totalAmountTaken: '0', realizedProfitUsd: '0', cumulativeRealizedProfitUsd: '-0.443479' });
  // i2 on 2026-11-03: −0.443479 + 1.086956 = 0.643477.
  t.deepEqual(
    days.find((day) => day.date === '2026-11-03'),
    { date: '2026-11-03', fulfilments: 1, totalAmountTaken: '200', realizedProfitUsd: '1.086956', cumulativeRealizedProfitUsd: '0.643477' },
  );
  // i1 on 2026-11-21: 0.643477 + 2 = 2.643477, the lifetime figure.
  t.deepEqual(
    days.find((day) => day.date === '2026-11-21'),
    { date: '2026-11-21', fulfilments: 1, totalAmountTaken: '100', realizedProfitUsd: '2', cumulativeRealizedProfitUsd: '2.643477' },
  );
  t.is(days.at(-1)!.cumulativeRealizedProfitUsd, '2.643477');
  t.deepEqual(
    detail.deposits.map((row) => [row.depositId, row.totalDeposited, row.availableLiquidity, row.closed, row.successRateBps]),
    [
      [`8453_${ESCROW.toLowerCase()}_1`, '1000', '600', false, 8000],
      [`8453_${ESCROW.toLowerCase()}_2`, '500', '0', true, 0],
    ],
  );
});

test('a loss shows as a negative profit and ranks below a maker that made nothing', async (t) => {
  const loss = record({
    id: 'loss',
    maker: C,
    depositId: '4',
    platform: 'revolut',
    currency: 'EUR',
    rate: (91n * RATE) / 100n,
    status: FULFILLED,
    released: 50n * USDC,
    at: NOW - DAY,
    reference: 920_000n,
  });
  const page = await board([...INTENTS, loss]).page(query());
  // C: 50 at 0.91 against 0.92 → −0.543479; D keeps 0 and moves up to rank 3.
  t.deepEqual(figures(page).slice(2), [
    [id(D), 3, '0', '10'],
    [id(C), 4, '-0.543479', '50'],
  ]);
});

test('one snapshot answers until the cache passes; the next request builds another', async (t) => {
  let now = NOW * 1000;
  let reads = 0;
  const leaderboard = new Leaderboard(
    {
      ledger: { all: async () => (reads++, INTENTS) },
      liquidity: { allDeposits: async () => DEPOSITS },
      now: () => now,
      logger: createLogger({ level: 'silent' }),
    },
    { chainId: 8453, escrow: ESCROW, cacheMs: 15_000 },
  );
  await Promise.all([leaderboard.summary(), leaderboard.page(query()), leaderboard.rank(id(A), '30d')]);
  now += 14_999;
  t.is((await leaderboard.summary()).generatedAt, '2026-11-23T12:00:00.000Z');
  t.is(reads, 1, 'requests during a build share it');
  now += 1;
  t.is((await leaderboard.summary()).generatedAt, '2026-11-23T12:00:15.000Z');
  t.is(reads, 2);
});

test('a store that cannot be read is 503 LEADERBOARD_UNAVAILABLE', async (t) => {
  const leaderboard = new Leaderboard(
    {
      ledger: { all: async () => Promise.reject(new Error('store down')) },
      liquidity: { allDeposits: async () => DEPOSITS },
      now: () => NOW * 1000,
      logger: createLogger({ level: 'silent' }),
    },
    { chainId: 8453, escrow: ESCROW, cacheMs: 15_000 },
  );
  await t.throwsAsync(leaderboard.summary(), { message: 'The leaderboard cannot be read right now; retry shortly' });
});
