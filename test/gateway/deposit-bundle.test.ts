/**
 * Document 3's deposit bundle through HTTP on a node with its local chain and seeded makers:
 * ben's revolut EUR deposit (3,000 USDC at 0.925) sells 150 of a 200 intent, an intent of 100 is
 * cancelled, ben adds 500 and then withdraws everything, which closes it. The bundle's reading
 * is kept for 10 seconds of the node's clock unless forceRefresh asks again.
 */
import test from 'ava';
import { keccak256, toBytes } from 'viem';
import type { SeededMaker } from '../../deploy/seed-makers.js';
import { anvilTestAccount, escrowAbi, mockUSDCAbi } from '../../indexer/chain/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { buyFromSeeded } from '../support/seeded-intents.js';
import { untilOnClock } from '../support/real-time-poll.js';

const USDC = 1_000_000n;
const HOUR_MS = 3_600_000;
const BEN = anvilTestAccount(3);

const buy = (gateway: TestGateway, seeded: SeededMaker, amount: bigint, released: bigint | 'cancel') =>
  buyFromSeeded(gateway.node.chain!.localChain!, seeded, amount, released);

async function asBen(gateway: TestGateway, functionName: 'addFunds' | 'withdrawDeposit', args: readonly bigint[]) {
  const local = gateway.node.chain!.localChain!;
  return local.confirm(await local.walletFor(BEN).writeContract({ address: local.escrow, abi: escrowAbi, functionName, args } as never));
}

async function bundle(gateway: TestGateway, depositId: bigint | string, query: string) {
  const answer = await gateway.request('GET', `/v2/deposits/${depositId}/bundle?${query}`);
  if (answer.status !== 200) throw new Error(`${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject;
}

test('a deposit’s bundle: the deposit, its intents, fund events, every movement, profit and daily snapshots, kept until forceRefresh', async (t) => {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, INDEXER_POLL_MS: 20, LOCAL_MAKERS: true });
  t.teardown(() => gateway.stop());
  const local = gateway.node.chain!.localChain!;
  const escrow = local.escrow;
  await untilOnClock(
    gateway.clock,
    async () => (await gateway.node.liquidity!.openDeposits()).filter((deposit) => deposit.offers.length > 0).length,
    (n) => n === 8,
    'the seeded deposits in the book',
  );
  const revolut = gateway.node.seededMakers.find((maker) => maker.platform === 'revolut')!;
  const sold = await buy(gateway, revolut, 200n * USDC, 150n * USDC);
  const cancelled = await buy(gateway, revolut, 100n * USDC, 'cancel');
  await untilOnClock(
    gateway.clock,
    async () => [await gateway.node.intents!.intent(sold), await gateway.node.intents!.intent(cancelled)],
    ([a, b]) => a?.status === 'FULFILLED' && b?.status === 'PRUNED',
    'the intents in the ledger',
  );

  const query = `escrowAddress=${escrow}`;
  const first = await untilOnClock(
    gateway.clock,
    () => bundle(gateway, revolut.depositId, `${query}&forceRefresh=true`),
    (answer) => answer.deposit.intentsSignaled === 2,
    'the indexer’s reading of both intents',
  );
  t.like(first, {
    chainId: 8453,
    escrowAddress: escrow,
    depositId: `8453_${escrow.toLowerCase()}_${revolut.depositId}`,
    depositIdOnContract: String(revolut.depositId),
  });
  t.like(first.deposit, {
    depositor: BEN.address,
    token: local.usdc,
    // 3,000 − 200 locked + 50 of it back.
    availableTokenAmount: '2850',
    lockedTokenAmount: '0',
    totalDeposited: '3000',
    totalAmountTaken: '150',
    closed: false,
    intentsSignaled: 2,
    intentsFulfilled: 1,
    successRateBps: 5000,
    rateManagerId: null,
  });
  t.deepEqual(first.deposit.paymentMethods, [
    {
      paymentMethodHash: keccak256(toBytes('revolut')),
      paymentPlatform: 'revolut',
      payeeDetailsHash: revolut.payeeDetails,
      currencies: [{ currencyCode: keccak256(toBytes('EUR')), currency: 'EUR', conversionRate: revolut.conversionRate.toString() }],
    },
  ]);
  t.deepEqual(
    first.intents.map((intent: any) => [intent.intentHash, intent.status, intent.amount, intent.amountTaken, intent.realizedProfitUsd]).sort(),
    [
      // 150 × (0.925 / 0.92 − 1) = 0.8152173… → 0.815217.
      [sold, 'FULFILLED', '200', '150', '0.815217'],
      [cancelled, 'PRUNED', '100', '0', null],
    ].sort(),
  );
  t.like(
    first.intents.find((intent: any) => intent.intentHash === sold),
    { paymentPlatform: 'revolut', currency: 'EUR', referenceRate: '0.920000' },
  );
  t.deepEqual(
    first.profitSnapshots.map((snapshot: any) => [snapshot.intentHash, snapshot.cumulativeAmountTaken, snapshot.cumulativeRealizedProfitUsd]),
    [[sold, '150', '0.815217']],
  );
  t.deepEqual(
    first.fundActivity.map((movement: any) => [movement.type, movement.amount, movement.after.availableTokenAmount]),
    [
      ['DEPOSIT_RECEIVED', '3000', '3000'],
      ['LOCKED', '200', '2800'],
      ['TAKEN', '150', '2850'],
      ['LOCKED', '100', '2750'],
      ['UNLOCKED', '100', '2850'],
    ],
  );
  t.deepEqual(
    first.fundEvents.map((event: any) => [event.type, event.amount]),
    [['DEPOSIT_RECEIVED', '3000']],
  );

  // Kept: what happens on chain now shows only once the reading is 10 seconds old, or on forceRefresh.
  await local.mintUsdc(BEN.address, 500n * USDC);
  await local.confirm(
    await local.walletFor(BEN).writeContract({ address: local.usdc, abi: mockUSDCAbi, functionName: 'approve', args: [escrow, 500n * USDC] }),
  );
  await asBen(gateway, 'addFunds', [revolut.depositId, 500n * USDC]);
  await asBen(gateway, 'withdrawDeposit', [revolut.depositId]);
  const kept = await bundle(gateway, revolut.depositId, query);
  t.is(kept.generatedAt, first.generatedAt);
  t.false(kept.deposit.closed);
  const closed = await untilOnClock(
    gateway.clock,
    () => bundle(gateway, revolut.depositId, `${query}&forceRefresh=true`),
    (answer) => answer.deposit.closed,
    'the close read from the indexer',
  );
  t.true(Date.parse(closed.generatedAt) > Date.parse(first.generatedAt));
  t.like(closed.deposit, { availableTokenAmount: '0', totalDeposited: '3500', totalAmountTaken: '150', closed: true });
  // 2,850 + 500 withdrawn whole, and the deposit closed since nothing was locked.
  t.deepEqual(
    closed.fundEvents.map((event: any) => [event.type, event.amount]),
    [
      ['DEPOSIT_RECEIVED', '3000'],
      ['FUNDS_ADDED', '500'],
      ['WITHDRAWN', '3350'],
      ['CLOSED', '0'],
    ],
  );
  t.deepEqual(
    closed.fundActivity.slice(5).map((movement: any) => [movement.type, movement.after.availableTokenAmount, movement.after.totalDeposited]),
    [
      ['FUNDS_ADDED', '3350', '3500'],
      ['WITHDRAWN', '0', '3500'],
      ['CLOSED', '0', '3500'],
    ],
  );
  t.true(closed.fundEvents.every((event: any) => /^0x[0-9a-f]{64}$/.test(event.transactionHash) && event.blockNumber > 0));

  // The node's clock is behind the chain's: once past the last block, today's snapshot is the deposit as it ended.
  const lastBlockAt = Date.parse(closed.fundEvents.at(-1).timestamp);
  await gateway.clock.advance(Math.max(0, lastBlockAt - gateway.clock.now()) + HOUR_MS);
  const days = (await bundle(gateway, revolut.depositId, `${query}&dailySnapshotLimit=2`)).dailySnapshots;
  t.true(days.length >= 1 && days.length <= 2, JSON.stringify(days));
  t.deepEqual(days.at(-1), {
    date: new Date(gateway.clock.now()).toISOString().slice(0, 10),
    availableTokenAmount: '0',
    lockedTokenAmount: '0',
    totalDeposited: '3500',
    totalAmountTaken: '150',
    intentsSignaled: 2,
    intentsFulfilled: 1,
    realizedProfitUsd: '0.815217',
  });

  const unknown = await gateway.request('GET', `/v2/deposits/999/bundle?${query}`);
  t.deepEqual(unknown.body, {
    success: false,
    message: `No deposit 999 in the escrow ${escrow}`,
    responseObject: null,
    statusCode: 404,
    errorCode: 'DEPOSIT_NOT_FOUND',
  });
  const other = `0x${'5'.repeat(40)}`;
  const elsewhere = await gateway.request('GET', `/v2/deposits/${revolut.depositId}/bundle?escrowAddress=${other}`);
  t.deepEqual(elsewhere.body, {
    success: false,
    message: `This node reads the escrow ${escrow}, not ${other}`,
    responseObject: null,
    statusCode: 404,
    errorCode: 'DEPOSIT_NOT_FOUND',
  });
});

test('a bad deposit id or query is a 400 naming the field; a node that reads no chain answers 503 DEPOSIT_BUNDLE_UNAVAILABLE', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const escrow = `escrowAddress=0x${'5'.repeat(40)}`;
  const refused: [string, string][] = [
    [`/v2/deposits/abc/bundle?${escrow}`, 'depositId'],
    [`/v2/deposits/-1/bundle?${escrow}`, 'depositId'],
    ['/v2/deposits/1/bundle', 'escrowAddress'],
    ['/v2/deposits/1/bundle?escrowAddress=0x12', 'escrowAddress'],
    [`/v2/deposits/1/bundle?${escrow}&dailySnapshotLimit=0`, 'dailySnapshotLimit'],
    [`/v2/deposits/1/bundle?${escrow}&dailySnapshotLimit=367`, 'dailySnapshotLimit'],
    [`/v2/deposits/1/bundle?${escrow}&forceRefresh=yes`, 'forceRefresh'],
    [`/v2/deposits/1/bundle?${escrow}&colour=red`, ''],
  ];
  for (const [path, field] of refused) {
    const answer = await gateway.request('GET', path);
    t.is(answer.status, 400, path);
    t.is(answer.body.message, 'Invalid request', path);
    if (field) t.deepEqual(Object.keys(answer.body.responseObject.fieldErrors), [field], path);
    else t.true(answer.body.responseObject.formErrors.length > 0, path);
  }
  const answer = await gateway.request('GET', `/v2/deposits/1/bundle?${escrow}`);
  t.is(answer.status, 503);
  t.is(answer.body.errorCode, 'DEPOSIT_BUNDLE_UNAVAILABLE');
});

test('dailySnapshotLimit 366 is inside document 3’s bounds: it passes validation and meets the node’s own 503', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const answer = await gateway.request('GET', `/v2/deposits/1/bundle?escrowAddress=0x${'5'.repeat(40)}&dailySnapshotLimit=366`);
  t.is(answer.status, 503);
  t.is(answer.body.errorCode, 'DEPOSIT_BUNDLE_UNAVAILABLE');
});
