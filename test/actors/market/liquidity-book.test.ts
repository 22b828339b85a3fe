/** The liquidity book against a local chain and its indexer: deposits in, intents, closes, re-organisations, restarts, seeded makers. */
import test from 'ava';
import { Metadata } from '@grpc/grpc-js';
import { setTimeout as delay } from 'node:timers/promises';
import { keccak256, parseEventLogs, parseUnits, toBytes, type Hex } from 'viem';
import { createLogger } from '../../../actors/index.js';
import { LiquidityBook, PayeeDirectory } from '../../../actors/market/index.js';
import { seedMakers } from '../../../deploy/seed-makers.js';
import { anvilTestAccount, escrowAbi, orchestratorAbi } from '../../../indexer/chain/index.js';
import type { GetStatusResponse, IndexerServiceClient } from '../../../proto/gen/peer/indexer/v1/indexer.js';
import { alice, bob, indexerCall, mine, mint, startTestChain, type TestChain } from '../../support/chain.js';
import { depositOn } from '../../support/local-deposit.js';
import { acceptCurrency, signalOn } from '../../support/local-intent.js';
import { eventually } from '../../support/nats.js';
import { startTestSystem, type TestSystem } from '../../support/test-node.js';

const USDC = 1_000_000n;
const VENMO = keccak256(toBytes('venmo'));
const USD = keccak256(toBytes('USD'));
const RATE = parseUnits('1.01', 18);
const PAYEE = keccak256(toBytes('3141592653'));
const logger = createLogger({ level: 'silent' });

interface SetUp {
  chain: TestChain;
  node: TestSystem;
  book(client?: IndexerServiceClient): LiquidityBook;
}

async function setUp(t: { teardown(fn: () => Promise<void>): void }): Promise<SetUp> {
  const chain = await startTestChain();
  t.teardown(() => chain.stop());
  const node = await startTestSystem({ kinds: [] });
  const book = (client = chain.grpc) => {
    const made = new LiquidityBook({ system: node.system, store: node.store, client, logger, escrow: chain.local.escrow, minRetryMs: 10 });
    t.teardown(() => made.stop());
    return made;
  };
  return { chain, node, book };
}

/** Waits until the indexer has read the chain's head, then until the book has taken every fact it logged. */
async function caughtUp(chain: TestChain, book: LiquidityBook): Promise<void> {
  const head = await chain.client.getBlockNumber({ cacheTime: 0 });
  for (let poll = 0; poll < 500; poll++) {
    const status = await indexerCall<GetStatusResponse>((options, done) => chain.grpc.getStatus({}, new Metadata(), options, done));
    if (status.cursorBlock >= head) return book.delivered(Number(status.lastSequence));
    await delay(20);
  }
  throw new Error(`the indexer did not reach block ${head}`);
}

/** A deposit of `amount` by alice taking venmo USD at 1.01, intents of 1 to 1,000 USDC. */
async function venmoDeposit(chain: TestChain, amount: bigint): Promise<bigint> {
  await mint(chain, alice.address, amount);
  const { depositId } = await depositOn(chain.local, alice, amount, { range: { min: USDC, max: 1_000n * USDC } });
  await chain.local.confirm(
    await chain.local
      .walletFor(alice)
      .writeContract({ address: chain.local.escrow, abi: escrowAbi, functionName: 'setPaymentMethod', args: [depositId, VENMO, PAYEE] }),
  );
  await acceptCurrency(chain.local, alice, depositId, VENMO, USD, RATE);
  return depositId;
}

const venmoUsd = (usdcAmount: bigint) => ({ paymentMethod: VENMO, currency: USD, usdcAmount });

async function signal(chain: TestChain, depositId: bigint, amount: bigint): Promise<Hex> {
  const receipt = await chain.local.confirm(
    await signalOn(chain.local, bob, { depositId, amount, to: bob.address, paymentMethod: VENMO, fiatCurrency: USD, conversionRate: RATE }),
  );
  return parseEventLogs({ abi: orchestratorAbi, logs: receipt.logs, eventName: 'IntentSignaled' })[0]!.args.intentHash;
}

test('a deposit appears with its payee, methods and currencies once its facts are in', async (t) => {
  const { chain, book: make } = await setUp(t);
  const book = make();
  await book.start();
  const depositId = await venmoDeposit(chain, 2_000n * USDC);
  await caughtUp(chain, book);

  t.like(await book.deposit(depositId.toString()), {
    depositId: depositId.toString(),
    depositor: alice.address,
    token: chain.local.usdc,
    available: 2_000n * USDC,
    locked: 0n,
    intentMin: USDC,
    intentMax: 1_000n * USDC,
    closed: false,
    methods: [{ paymentMethod: VENMO, payeeDetails: PAYEE, currencies: [{ currency: USD, minConversionRate: RATE }] }],
  });
  t.like(await book.offers(venmoUsd(100n * USDC)), [{ depositId: depositId.toString(), payeeDetails: PAYEE, conversionRate: RATE, available: 2_000n * USDC }]);
  t.deepEqual(await book.offers({ paymentMethod: VENMO, currency: keccak256(toBytes('EUR')), usdcAmount: 100n * USDC }), []);
  t.is(await book.count(), 1);
});

test('an intent lowers what is available, and an amount above the rest finds no offer', async (t) => {
  const { chain, book: make } = await setUp(t);
  const book = make();
  await book.start();
  const depositId = await venmoDeposit(chain, 1_000n * USDC);
  await signal(chain, depositId, 700n * USDC);
  await caughtUp(chain, book);

  t.like(await book.deposit(depositId.toString()), { available: 300n * USDC, locked: 700n * USDC });
  t.deepEqual(await book.offers(venmoUsd(500n * USDC)), []);
  t.is((await book.offers(venmoUsd(300n * USDC))).length, 1);
});

test('a withdrawn and closed deposit leaves the offers; the others stay', async (t) => {
  const { chain, book: make } = await setUp(t);
  const book = make();
  await book.start();
  const closing = await venmoDeposit(chain, 500n * USDC);
  const staying = await venmoDeposit(chain, 600n * USDC);
  await chain.local.confirm(
    await chain.local.walletFor(alice).writeContract({ address: chain.local.escrow, abi: escrowAbi, functionName: 'withdrawDeposit', args: [closing] }),
  );
  await caughtUp(chain, book);

  t.like(await book.deposit(closing.toString()), { closed: true, available: 0n });
  t.deepEqual(
    (await book.offers(venmoUsd(10n * USDC))).map((offer) => offer.depositId),
    [staying.toString()],
  );
});

test('a re-organisation that takes an intent away gives its amount back', async (t) => {
  const { chain, book: make } = await setUp(t);
  const book = make();
  await book.start();
  const depositId = await venmoDeposit(chain, 1_000n * USDC);
  const beforeFork = (await chain.client.request({ method: 'evm_snapshot' as never })) as string;
  await signal(chain, depositId, 400n * USDC);
  await caughtUp(chain, book);
  t.like(await book.deposit(depositId.toString()), { available: 600n * USDC });

  await chain.client.request({ method: 'evm_revert' as never, params: [beforeFork] as never });
  await mine(chain, 2);
  await caughtUp(chain, book);
  // The indexer's answer now reflects an older fact than the one the book held: the retraction's sequence lets it in.
  t.like(await book.deposit(depositId.toString()), { available: 1_000n * USDC, locked: 0n });
  t.is((await book.offers(venmoUsd(1_000n * USDC))).length, 1);
});

test('a restarted book resumes from its cursor', async (t) => {
  const { chain, book: make } = await setUp(t);
  const first = make();
  await first.start();
  const early = await venmoDeposit(chain, 1_000n * USDC);
  await caughtUp(chain, first);
  const stoppedAt = first.afterSequence;
  await first.stop();

  const late = await venmoDeposit(chain, 800n * USDC);
  await acceptCurrency(chain.local, alice, early, VENMO, USD, RATE + 1n);
  const asked: bigint[] = [];
  const client = new Proxy(chain.grpc, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      if (property !== 'streamFacts') return value.bind(target);
      return (request: { afterSequence: bigint }) => {
        asked.push(request.afterSequence);
        return (value as (request: unknown) => unknown).call(target, request);
      };
    },
  });
  const second = make(client);
  await second.start();
  await caughtUp(chain, second);

  t.is(asked[0], BigInt(stoppedAt), 'the first stream asks for the facts after the saved cursor');
  t.deepEqual(
    (await second.offers(venmoUsd(10n * USDC))).map(({ depositId, conversionRate }) => [depositId, conversionRate]),
    [
      [late.toString(), RATE],
      [early.toString(), RATE + 1n],
    ],
  );
});

test('an indexer serving another log makes the book start over from that log’s first fact', async (t) => {
  const { chain, book: make } = await setUp(t);
  const book = make();
  await book.start();
  const old = await venmoDeposit(chain, 1_000n * USDC);
  await caughtUp(chain, book);

  // A rebuilt indexer whose log starts after the first deposit: it knows only what comes next.
  await chain.replaceLog(Number(await chain.client.getBlockNumber({ cacheTime: 0 })) + 1);
  const fresh = await venmoDeposit(chain, 700n * USDC);
  await eventually(async () => (await book.deposit(fresh.toString())) !== null, 'the new log’s deposit in the book');
  await caughtUp(chain, book);

  t.is(await book.deposit(old.toString()), null, 'the deposit the new log does not hold is gone');
  t.is(await book.count(), 1);
});

test('seeded makers give venmo USD offers, the cheapest first', async (t) => {
  const { chain, node, book: make } = await setUp(t);
  const book = make();
  await book.start();
  const payees = await PayeeDirectory.open(node.store);
  const seeded = await seedMakers(chain.local, payees, '2026-11-23T12:00:00.000Z', logger);
  await caughtUp(chain, book);

  t.is(seeded.length, 8);
  t.deepEqual(new Set(seeded.map((seed) => seed.maker)), new Set([2, 3, 4].map((index) => anvilTestAccount(index).address)));
  const venmo = seeded.filter((seed) => seed.platform === 'venmo' && seed.currency === 'USD').sort((a, b) => (a.conversionRate < b.conversionRate ? -1 : 1));
  const offers = await book.offers(venmoUsd(100n * USDC));
  t.deepEqual(
    offers.map(({ depositId, payeeDetails, conversionRate }) => ({ depositId, payeeDetails, conversionRate })),
    venmo.map(({ depositId, payeeDetails, conversionRate }) => ({ depositId: depositId.toString(), payeeDetails, conversionRate })),
  );
  t.is(offers[0]!.conversionRate, parseUnits('1', 18));
  t.is(new Set(seeded.map((seed) => `${seed.platform}:${seed.payeeId}`)).size, 8, 'no two deposits share a payee on one platform');
  t.is((await book.offers({ paymentMethod: keccak256(toBytes('monzo')), currency: keccak256(toBytes('GBP')), usdcAmount: 1_000n * USDC })).length, 1);
  t.is(await payees.lookup('venmo', venmo[0]!.payeeDetails), venmo[0]!.payeeId, 'the directory tells whom a seeded deposit pays');
  t.is(await payees.lookup('cashapp', venmo[0]!.payeeDetails), null, 'a payee is registered per platform');
  await t.throwsAsync(seedMakers(chain.local, payees, '2026-11-23T12:00:00.000Z', logger), { message: /fresh local chain/ });
});
