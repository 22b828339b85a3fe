/**
 * Document 3's maker leaderboard through HTTP on a node with its local chain, indexer and
 * seeded makers (mary: venmo and cashapp USD; ben: venmo USD, revolut EUR, wise GBP; carla:
 * zelle-chase and paypal USD, monzo GBP). Takers buy from them on chain, the witness attests,
 * and the figures are checked against the amounts and rates worked by hand. Windows are
 * measured against the node's test clock, which the tests move.
 */
import test from 'ava';
import type { SeededMaker } from '../../deploy/seed-makers.js';
import { anvilTestAccount } from '../../indexer/chain/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { buyFromSeeded } from '../support/seeded-intents.js';
import { untilOnClock } from '../support/real-time-poll.js';

const USDC = 1_000_000n;
const DAY_MS = 86_400_000;
const SEEDED_DEPOSITS = 8;
const [MARY, BEN, CARLA] = [2, 3, 4].map((index) => anvilTestAccount(index).address.toLowerCase()) as [string, string, string];
const makerId = (maker: string) => `8453_${maker}`;
/** The taker buys `amount` from a seeded deposit and the witness attests all of it, or the taker cancels. */
const buy = (gateway: TestGateway, seeded: SeededMaker, amount: bigint, outcome: 'fulfil' | 'cancel') =>
  buyFromSeeded(gateway.node.chain!.localChain!, seeded, amount, outcome === 'cancel' ? 'cancel' : amount);

async function ok(gateway: TestGateway, path: string) {
  const answer = await gateway.request('GET', path);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject;
}

/** A node whose seeded makers sold: carla 100 on paypal at 1.02, ben 200 on revolut at 0.925 EUR, mary 10 on venmo at 1.00, and a cashapp intent of mary's cancelled. */
async function tradedNode(t: { teardown(fn: () => Promise<void>): void }): Promise<{ gateway: TestGateway; lastFulfilledAt: number }> {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, INDEXER_POLL_MS: 20, LOCAL_MAKERS: true });
  t.teardown(() => gateway.stop());
  const { liquidity, intents } = gateway.node;
  await untilOnClock(
    gateway.clock,
    async () => (await liquidity!.openDeposits()).filter((deposit) => deposit.offers.length > 0).length,
    (n) => n === SEEDED_DEPOSITS,
    'the seeded deposits in the book',
  );
  const seeded = (platform: string) => gateway.node.seededMakers.find((maker) => maker.platform === platform)!;
  const sold = [
    await buy(gateway, seeded('paypal'), 100n * USDC, 'fulfil'),
    await buy(gateway, seeded('revolut'), 200n * USDC, 'fulfil'),
    await buy(gateway, seeded('venmo'), 10n * USDC, 'fulfil'),
  ];
  const cancelled = await buy(gateway, seeded('cashapp'), 50n * USDC, 'cancel');
  const records = await untilOnClock(
    gateway.clock,
    async () => Promise.all([...sold, cancelled].map((hash) => intents!.intent(hash))),
    (found) => found.slice(0, 3).every((record) => record?.status === 'FULFILLED') && found[3]?.status === 'PRUNED',
    'the intents in the ledger',
  );
  // The book's counts come from the same facts through its own reader.
  await untilOnClock(
    gateway.clock,
    async () => (await liquidity!.allDeposits()).reduce((sum, deposit) => sum + deposit.intentsSignaled + deposit.intentsFulfilled, 0),
    (n) => n === 7,
    'the intents counted in the book',
  );
  return { gateway, lastFulfilledAt: Math.max(...records.slice(0, 3).map((record) => record!.fulfilledAt!)) };
}

test('makers ranked by profit, volume and liquidity, with a summary, ranks and a detail, each figure worked by hand', async (t) => {
  const { gateway, lastFulfilledAt } = await tradedNode(t);

  const page = await ok(gateway, '/v2/leaderboard');
  t.like(page, {
    chainId: 8453,
    window: 'lifetime',
    windowStart: null,
    sortBy: 'profit',
    sortOrder: 'desc',
    pagination: { limit: 25, offset: 0, total: 3, hasMore: false },
  });
  // carla: 100 × (1.02 − 1) = 2; ben: 200 × (0.925 / 0.92 − 1) = 1.0869565… → 1.086956; mary: 10 × (1.00 − 1) = 0.
  t.deepEqual(
    page.makers.map((row: any) => [row.makerId, row.rank, row.realizedProfitUsd, row.totalAmountTaken, row.totalDeposited]),
    [
      [makerId(CARLA), 1, '2', '100', '9000'],
      [makerId(BEN), 2, '1.086956', '200', '9000'],
      [makerId(MARY), 3, '0', '10', '8000'],
    ],
  );
  t.like(page.makers[2], {
    makerAddress: anvilTestAccount(2).address,
    // venmo 5,000 less the 10 sold, and cashapp's 3,000 whole again after the cancel.
    availableLiquidity: '7990',
    depositCount: 2,
    activeDepositCount: 2,
    intentsSignaled: 2,
    intentsFulfilled: 1,
    successRateBps: 5000,
  });
  t.truthy(page.makers[2].firstDepositAt);

  t.deepEqual(
    (await ok(gateway, '/v2/leaderboard?sortBy=volume')).makers.map((row: any) => [row.makerId, row.rank]),
    [
      [makerId(BEN), 1],
      [makerId(CARLA), 2],
      [makerId(MARY), 3],
    ],
  );
  // ben and carla both put in 9,000 and share the top; equals go in address order.
  const byLiquidity = (await ok(gateway, '/v2/leaderboard?sortBy=liquidity')).makers.map((row: any) => [row.makerId, row.rank]);
  t.deepEqual(byLiquidity, [
    ...[
      [makerId(BEN), 1],
      [makerId(CARLA), 1],
    ].sort((a, b) => (a[0]! < b[0]! ? -1 : 1)),
    [makerId(MARY), 3],
  ]);
  t.deepEqual(
    (await ok(gateway, '/v2/leaderboard?sortOrder=asc&limit=1&offset=1')).makers.map((row: any) => row.makerId),
    [makerId(BEN)],
  );

  t.like(await ok(gateway, '/v2/leaderboard/summary'), {
    chainId: 8453,
    totalMakers: 3,
    makersWithIntents: 3,
    // 2 + 1.086956 + 0.
    totalRealizedProfitUsd: '3.086956',
    totalAmountTaken: '310',
    // 8,000 + 9,000 + 9,000.
    totalDeposited: '26000',
    totalDeposits: 8,
    activeDeposits: 8,
    totalIntentsSignaled: 4,
    totalIntentsFulfilled: 3,
    // (5,000 + 10,000 + 10,000) / 3 = 8,333 (down).
    averageSuccessRateBps: 8333,
  });

  t.like(await ok(gateway, `/v2/leaderboard/rank/${makerId(BEN)}`), {
    makerId: makerId(BEN),
    window: 'lifetime',
    totalMakers: 3,
    ranks: { profit: 2, volume: 1, liquidity: 1 },
    maker: { realizedProfitUsd: '1.086956' },
  });
  t.like(
    await ok(gateway, `/v2/leaderboard/rank/8453_${anvilTestAccount(3).address}`),
    { makerId: makerId(BEN) },
    'a checksummed address names the same maker',
  );

  const detail = await ok(gateway, `/v2/leaderboard/maker/${makerId(MARY)}`);
  t.like(detail, { makerId: makerId(MARY), ranks: { profit: 3, volume: 3, liquidity: 3 }, maker: { totalAmountTaken: '10' } });
  t.deepEqual(
    detail.platforms.map((row: any) => [row.paymentPlatform, row.intentsSignaled, row.intentsFulfilled, row.intentsPruned, row.totalAmountTaken]),
    [
      ['venmo', 1, 1, 0, '10'],
      ['cashapp', 1, 0, 1, '0'],
    ],
  );
  t.deepEqual(
    detail.currencies.map((row: any) => [row.currency, row.totalAmountTaken, row.fiatAmount, row.realizedProfitUsd]),
    [['USD', '10', '10.00', '0']],
  );
  t.deepEqual(
    detail.deposits.map((row: any) => [row.depositIdOnContract, row.totalDeposited, row.intentsSignaled, row.intentsFulfilled]),
    [
      ['1', '5000', 1, 1],
      ['2', '3000', 1, 0],
    ],
  );
  t.is(detail.profitSnapshots.length, 30);

  // Eight days after the last fulfilment (by the node's clock), the 7-day window holds none of them; 30 days holds them all. Liquidity and counts stay.
  await gateway.clock.advance(Math.max(0, lastFulfilledAt * 1000 - gateway.clock.now()) + 8 * DAY_MS);
  const week = await ok(gateway, '/v2/leaderboard?window=7d&sortBy=volume');
  t.is(week.windowStart, new Date(gateway.clock.now() - 7 * DAY_MS).toISOString().replace(/\.\d{3}Z$/, '.000Z'));
  t.deepEqual(
    week.makers.map((row: any) => [row.rank, row.totalAmountTaken, row.realizedProfitUsd]),
    [
      [1, '0', '0'],
      [1, '0', '0'],
      [1, '0', '0'],
    ],
  );
  t.like(
    week.makers.find((row: any) => row.makerId === makerId(MARY)),
    { totalDeposited: '8000', intentsSignaled: 2, successRateBps: 5000 },
  );
  t.deepEqual(
    (await ok(gateway, '/v2/leaderboard?window=30d')).makers.map((row: any) => [row.makerId, row.realizedProfitUsd]),
    [
      [makerId(CARLA), '2'],
      [makerId(BEN), '1.086956'],
      [makerId(MARY), '0'],
    ],
  );
  t.like(await ok(gateway, `/v2/leaderboard/rank/${makerId(CARLA)}?window=7d`), {
    window: '7d',
    ranks: { profit: 1, volume: 1 },
    maker: { totalAmountTaken: '0' },
  });
  const days = (await ok(gateway, `/v2/leaderboard/maker/${makerId(CARLA)}`)).profitSnapshots;
  t.is(days.filter((day: any) => day.fulfilments > 0).length, 1, 'the sale is one of the last 30 days');
  t.is(days.at(-1).cumulativeRealizedProfitUsd, '2');

  // An address with no deposit, and a maker named on another chain, are unknown here.
  for (const unknown of [makerId(`0x${'e'.repeat(40)}`), `1_${MARY}`]) {
    for (const path of [`/v2/leaderboard/maker/${unknown}`, `/v2/leaderboard/rank/${unknown}`]) {
      const answer = await gateway.request('GET', path);
      t.is(answer.status, 404, path);
      t.deepEqual(answer.body, {
        success: false,
        message: `No maker ${unknown} on this leaderboard`,
        responseObject: null,
        statusCode: 404,
        errorCode: 'MAKER_NOT_FOUND',
      });
    }
  }
});

test('a bad query or maker id is a 400 naming the field, and a node that reads no chain answers 503 LEADERBOARD_UNAVAILABLE', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const maker = makerId(MARY);
  const refused: [string, string][] = [
    ['/v2/leaderboard?limit=101', 'limit'],
    ['/v2/leaderboard?limit=0', 'limit'],
    ['/v2/leaderboard?offset=-1', 'offset'],
    ['/v2/leaderboard?sortBy=apr', 'sortBy'],
    ['/v2/leaderboard?sortOrder=up', 'sortOrder'],
    ['/v2/leaderboard?window=1y', 'window'],
    ['/v2/leaderboard?colour=red', ''],
    [`/v2/leaderboard/rank/${maker}?window=1d`, 'window'],
    [`/v2/leaderboard/rank/${maker}?sortBy=profit`, ''],
    ['/v2/leaderboard/rank/0xabc', 'makerId'],
    [`/v2/leaderboard/maker/${MARY}`, 'makerId'],
    [`/v2/leaderboard/maker/8453-${MARY}`, 'makerId'],
    [`/v2/leaderboard/maker/8453_${MARY}00`, 'makerId'],
  ];
  for (const [path, field] of refused) {
    const answer = await gateway.request('GET', path);
    t.is(answer.status, 400, path);
    t.is(answer.body.message, 'Invalid request', path);
    if (field) t.deepEqual(Object.keys(answer.body.responseObject.fieldErrors), [field], path);
    else t.true(answer.body.responseObject.formErrors.length > 0, path);
  }
  for (const path of ['/v2/leaderboard', '/v2/leaderboard/summary', `/v2/leaderboard/rank/${maker}`, `/v2/leaderboard/maker/${maker}`]) {
    const answer = await gateway.request('GET', path);
    t.is(answer.status, 503, path);
    t.is(answer.body.errorCode, 'LEADERBOARD_UNAVAILABLE', path);
  }
});

test('limit 100 is inside document 3’s bounds: it passes validation and meets the node’s own 503', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const answer = await gateway.request('GET', '/v2/leaderboard?limit=100');
  t.is(answer.status, 503);
  t.is(answer.body.errorCode, 'LEADERBOARD_UNAVAILABLE');
});
