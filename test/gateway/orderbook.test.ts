/**
 * Document 3's orderbook through HTTP on a node with its local chain, indexer and seeded
 * makers (three makers, six platforms, three currencies), plus deposits each test adds:
 * a private one, dust, an extreme price. The snapshot is kept until the node's clock
 * passes ORDERBOOK_CACHE_MS.
 */
import test from 'ava';
import { keccak256, parseUnits, toBytes } from 'viem';
import { escrowAbi, anvilTestAccount } from '../../indexer/chain/index.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { depositOn } from '../support/local-deposit.js';
import { acceptCurrency } from '../support/local-intent.js';
import { untilOnClock } from '../support/real-time-poll.js';

const USDC = 1_000_000n;
const BASE_USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const CACHE_MS = 15_000;
const SEEDED_DEPOSITS = 8;

async function marketNode(t: { teardown(fn: () => Promise<void>): void }): Promise<TestGateway> {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, INDEXER_POLL_MS: 20, LOCAL_MAKERS: true, ORDERBOOK_CACHE_MS: CACHE_MS });
  t.teardown(() => gateway.stop());
  await priced(gateway, SEEDED_DEPOSITS);
  return gateway;
}

/** Waits until the book holds `count` open deposits, each with the price its maker set. */
async function priced(gateway: TestGateway, count: number): Promise<void> {
  const pricedCount = async () => (await gateway.node.liquidity!.openDeposits()).filter((deposit) => deposit.offers.length > 0).length;
  await untilOnClock(gateway.clock, pricedCount, (n) => n === count, `${count} priced deposits in the book`);
}

async function ok(gateway: TestGateway, path: string) {
  const answer = await gateway.request('GET', path);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject;
}

/** A new maker's deposit on the node's chain, taking `platform` in `currency` at `rate`. */
async function addDeposit(
  gateway: TestGateway,
  account: number,
  platform: string,
  currency: string,
  rate: string,
  usdc: bigint,
  range = { min: USDC / 10n, max: 500n * USDC },
): Promise<bigint> {
  const local = gateway.node.chain!.localChain!;
  const maker = anvilTestAccount(account);
  await local.mintUsdc(maker.address, usdc);
  const { depositId } = await depositOn(local, maker, usdc, { range });
  const method = keccak256(toBytes(platform));
  await local.confirm(
    await local.walletFor(maker).writeContract({
      address: local.escrow,
      abi: escrowAbi,
      functionName: 'setPaymentMethod',
      args: [depositId, method, keccak256(toBytes(`payee-${account}`))],
    }),
  );
  await acceptCurrency(local, maker, depositId, method, keccak256(toBytes(currency)), parseUnits(rate, 18));
  return depositId;
}

/** Moves the clock past the cache and waits for a snapshot that holds `count` deposits' rows for `currency`. */
async function refreshed(gateway: TestGateway, path: string, done: (answer: any) => boolean) {
  await gateway.clock.advance(CACHE_MS);
  return untilOnClock(gateway.clock, () => ok(gateway, path), done, `a fresh snapshot for ${path}`);
}

test('the seeded makers’ USD deposits, cheapest first, each with document 3’s fields', async (t) => {
  const gateway = await marketNode(t);
  const local = gateway.node.chain!.localChain!;
  const book = await ok(gateway, '/v2/orderbook?currency=USD');
  t.like(book, {
    chainId: 8453,
    token: BASE_USDC,
    currency: 'USD',
    paymentPlatform: null,
    publicOnly: false,
    sortBy: 'price',
    sortDirection: 'asc',
    sellerAutomatedRelease: 'include',
    internalDetailsIncluded: false,
  });
  t.is(book.generatedAt, new Date(gateway.clock.now()).toISOString());
  // Equal prices: the deeper deposit first (venmo 5,000 before zelle-chase 4,000).
  t.deepEqual(
    book.entries.map((entry: any) => `${entry.paymentPlatform} ${entry.price}`),
    ['venmo 1.00', 'zelle-chase 1.00', 'cashapp 1.005', 'venmo 1.01', 'paypal 1.02'],
  );
  const first = book.entries[0];
  t.like(first, {
    chainId: 8453,
    depositIdOnContract: '1',
    depositId: `8453_${local.escrow.toLowerCase()}_1`,
    escrowAddress: local.escrow,
    depositor: anvilTestAccount(2).address,
    token: BASE_USDC,
    paymentMethodHash: keccak256(toBytes('venmo')),
    payeeDetailsHash: keccak256(toBytes('3141592653')),
    currencyCode: keccak256(toBytes('USD')),
    conversionRate: parseUnits('1', 18).toString(),
    availableTokenAmount: (5_000n * USDC).toString(),
    availableFiatAmount: '5000.00',
    intentAmountMin: USDC.toString(),
    intentAmountMax: (1_000n * USDC).toString(),
    minFiatSupported: '1.00',
    maxFiatSupported: '1000.00',
    spread: 0,
    apr: null,
    successRateBps: 0,
    rateManagerId: null,
    sellerAutomatedReleaseAvailable: false,
    sellerAutomatedReleaseEnabled: false,
  });
  t.is(first.netTokenAmount, ((5_000n * USDC * BigInt(10_000 - first.feeBps)) / 10_000n).toString());
  t.is(book.entries.find((entry: any) => entry.paymentPlatform === 'paypal').spread, 2);

  t.deepEqual(
    (await ok(gateway, '/v2/orderbook?currency=USD&sortDirection=desc')).entries.map((entry: any) => entry.price),
    ['1.02', '1.01', '1.005', '1.00', '1.00'],
  );
  t.deepEqual(
    (await ok(gateway, '/v2/orderbook?currency=USD&sortBy=available')).entries.map((entry: any) => entry.availableTokenAmount),
    ['5000000000', '4000000000', '4000000000', '3000000000', '3000000000'],
    'available sorts most first by default',
  );
  t.deepEqual(
    (await ok(gateway, '/v2/orderbook?currency=USD&paymentPlatform=venmo')).entries.map((entry: any) => entry.price),
    ['1.00', '1.01'],
  );
  t.is((await ok(gateway, `/v2/orderbook?currency=USD&amount=${1_000n * USDC}`)).entries.length, 5);
  t.is((await ok(gateway, `/v2/orderbook?currency=USD&amount=${1_000n * USDC + 1n}`)).entries.length, 0, 'above every intent range');
  const eur = await ok(gateway, '/v2/orderbook?currency=EUR');
  t.deepEqual(
    eur.entries.map((entry: any) => [entry.paymentPlatform, entry.price, entry.spread]),
    [['revolut', '0.925', 0.54]],
  );
  t.deepEqual(
    (await ok(gateway, '/v2/orderbook?currency=GBP')).entries.map((entry: any) => entry.paymentPlatform),
    ['wise', 'monzo'],
  );
  t.deepEqual((await ok(gateway, '/v2/orderbook?currency=JPY')).entries, []);
  t.deepEqual((await ok(gateway, '/v2/orderbook?currency=USD&chainId=1')).entries, [], 'this node lists Base’s deposits only');
  t.like(await ok(gateway, '/v2/orderbook?currency=USD&chainId=null&offset=null'), { chainId: 8453 });
});

test('the table form pages with a total, and shows each deposit’s methods and privacy', async (t) => {
  const gateway = await marketNode(t);
  const table = await ok(gateway, '/v2/orderbook/table?currency=USD&limit=2&offset=1');
  t.deepEqual(table.pagination, { limit: 2, offset: 1, total: 5, hasMore: true });
  t.deepEqual(
    table.rows.map((row: any) => row.paymentPlatform),
    ['zelle-chase', 'cashapp'],
  );
  t.like(table.rows[0], { isPrivate: false, takerConversionRate: parseUnits('1', 18).toString() });
  t.deepEqual(table.rows[1].supportedMethodHashes, [keccak256(toBytes('cashapp'))], 'the cashapp deposit takes that platform alone');
  t.false('price' in table.rows[0]);
  t.deepEqual((await ok(gateway, '/v2/orderbook/table?currency=USD&offset=4')).pagination, { limit: 200, offset: 4, total: 5, hasMore: false });
});

test('private, dust and extreme deposits show only when asked, once the cache has passed', async (t) => {
  const gateway = await marketNode(t);
  const local = gateway.node.chain!.localChain!;
  const before = await ok(gateway, '/v2/orderbook?currency=USD');
  const privateId = await addDeposit(gateway, 5, 'venmo', 'USD', '1.003', 800n * USDC);
  await local.confirm(
    await local.walletFor(anvilTestAccount(5)).writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setPrivate', args: [privateId, true] }),
  );
  const dustId = await addDeposit(gateway, 6, 'cashapp', 'USD', '1.001', USDC / 2n);
  const extremeId = await addDeposit(gateway, 7, 'chime', 'USD', '1.25', 900n * USDC);
  await priced(gateway, SEEDED_DEPOSITS + 3);

  const cached = await ok(gateway, '/v2/orderbook?currency=USD&showSmallOrders=true&hideExtremeSpread=false');
  t.is(cached.generatedAt, before.generatedAt, 'within the cache, the same snapshot');
  t.is(cached.entries.length, 5);

  const all = await refreshed(
    gateway,
    '/v2/orderbook/table?currency=USD&showSmallOrders=true&hideExtremeSpread=false',
    (answer) => answer.pagination.total === 8,
  );
  t.true(Date.parse(all.generatedAt) > Date.parse(before.generatedAt));
  const byId = new Map(all.rows.map((row: any) => [row.depositIdOnContract, row]));
  t.like(byId.get(String(privateId)), { isPrivate: true, paymentPlatform: 'venmo' });
  t.like(byId.get(String(extremeId)), { paymentPlatform: 'chime' });

  const shown = async (query: string) => (await ok(gateway, `/v2/orderbook/table?currency=USD${query}`)).rows.map((row: any) => row.depositIdOnContract);
  const defaults = await shown('');
  t.true(defaults.includes(String(privateId)), 'private deposits are listed unless publicOnly');
  t.false(defaults.includes(String(dustId)), 'dust is hidden by default');
  t.false(defaults.includes(String(extremeId)), 'a 25 % spread is extreme');
  t.false((await shown('&publicOnly=true')).includes(String(privateId)));
  t.true((await shown('&showSmallOrders=true')).includes(String(dustId)));
  t.true((await shown('&hideExtremeSpread=false')).includes(String(extremeId)));
  t.deepEqual(await shown('&sellerAutomatedRelease=only'), [], 'no seller credential is live on this node (it has no attestation service)');
  t.deepEqual(await shown('&sellerAutomatedRelease=exclude'), defaults);
});

test('a bad query is a 400 naming the field, before anything is read', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  for (const query of [
    '',
    'currency=usd',
    'currency=USD&limit=501',
    'currency=USD&limit=0',
    'currency=USD&sortBy=spread',
    'currency=USD&sortDirection=up',
    'currency=USD&publicOnly=yes',
    'currency=USD&amount=1.5',
    'currency=USD&offset=-1',
    'currency=USD&sellerAutomatedRelease=all',
    'currency=USD&token=usdc',
    'currency=USD&colour=red',
    'currency=USD&paymentPlatform=',
  ]) {
    const answer = await gateway.request('GET', `/v2/orderbook?${query}`);
    t.is(answer.status, 400, query);
    t.is(answer.body.message, 'Invalid request', query);
  }
  const field = await gateway.request('GET', '/v2/orderbook/table?currency=USD&limit=501');
  t.deepEqual(Object.keys(field.body.responseObject.fieldErrors), ['limit']);
});

test('a node that reads no chain has no orderbook: 503 ORDERBOOK_UNAVAILABLE', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  for (const path of ['/v2/orderbook?currency=USD', '/v2/orderbook/table?currency=USD']) {
    const answer = await gateway.request('GET', path);
    t.is(answer.status, 503);
    t.is(answer.body.errorCode, 'ORDERBOOK_UNAVAILABLE');
  }
});

test('a maker’s record rides on its deposits’ entries, and an active seller credential makes automated release available', async (t) => {
  const gateway = await startTestGateway({
    INDEXER_ENABLED: true,
    ENCLAVE_ENABLED: true,
    INDEXER_POLL_MS: 20,
    LOCAL_MAKERS: true,
    ORDERBOOK_CACHE_MS: CACHE_MS,
  });
  t.teardown(() => gateway.stop());
  await priced(gateway, SEEDED_DEPOSITS);
  const local = gateway.node.chain!.localChain!;
  const venmoPayee = keccak256(toBytes('3141592653'));
  const created = await gateway.request('POST', '/v1/makers/create', {
    body: { processorName: 'venmo', depositData: { venmoId: '3141592653', telegramUsername: 'makeralice' } },
  });
  t.is(created.status, 200, JSON.stringify(created.body));
  // Deposit 1 (venmo, the first seeded maker) opts in to automated release on chain, and its payee's credential is with the attestation service.
  await local.confirm(
    await local
      .walletFor(anvilTestAccount(2))
      .writeContract({ address: local.escrow, abi: escrowAbi, functionName: 'setSellerAutomatedRelease', args: [1n, true] }),
  );
  const credentials = await gateway.node.store.collection<Record<string, unknown> & { _id: string }>({ name: 'enclave_seller_credentials', indexes: [] });
  const expiresAt = new Date(gateway.clock.now() + 7 * 86_400_000).toISOString();
  await credentials.insertOne({
    _id: `venmo:${venmoPayee}`,
    credentialId: 'cred_1',
    platform: 'venmo',
    payeeDetails: venmoPayee,
    owner: anvilTestAccount(2).address,
    sealed: 'sealed',
    status: 'ACTIVE',
    createdAt: new Date(gateway.clock.now()).toISOString(),
    expiresAt,
    endedAt: null,
    lastResolvedAt: null,
  });
  await untilOnClock(
    gateway.clock,
    async () => (await gateway.node.liquidity!.openDeposits()).find((deposit) => deposit._id === '1')?.sellerAutomatedRelease,
    (flag) => flag === true,
    'the flag in the book',
  );

  const book = await refreshed(gateway, '/v2/orderbook?currency=USD&paymentPlatform=venmo', (answer) => answer.entries[0]?.maker !== undefined);
  const [first, second] = book.entries;
  t.like(first, { depositIdOnContract: '1', sellerAutomatedReleaseEnabled: true, sellerAutomatedReleaseAvailable: true });
  t.like(first.maker, {
    processorName: 'venmo',
    offchainId: '3141592653',
    hashedOnchainId: venmoPayee,
    telegramUsername: 'makeralice',
    id: created.body.responseObject.id,
  });
  t.false('maker' in second, 'the other venmo maker made no record');
  t.like(second, { sellerAutomatedReleaseEnabled: false, sellerAutomatedReleaseAvailable: false });
  t.deepEqual(
    (await ok(gateway, '/v2/orderbook?currency=USD&sellerAutomatedRelease=only')).entries.map((entry: any) => entry.depositIdOnContract),
    ['1'],
  );
  t.false((await ok(gateway, '/v2/orderbook?currency=USD&sellerAutomatedRelease=exclude')).entries.some((entry: any) => entry.depositIdOnContract === '1'));
  t.false('maker' in (await ok(gateway, '/v2/orderbook/table?currency=USD&paymentPlatform=venmo')).rows[0], 'the table form carries no maker');

  // Past its expiry the credential is still enabled, no longer available.
  await gateway.clock.advance(7 * 86_400_000);
  const expired = await refreshed(
    gateway,
    '/v2/orderbook?currency=USD&paymentPlatform=venmo',
    (answer) => answer.entries[0]?.sellerAutomatedReleaseAvailable === false,
  );
  t.like(expired.entries[0], { sellerAutomatedReleaseEnabled: true, sellerAutomatedReleaseAvailable: false });
});

test('limit 500 is inside document 3’s bounds: it passes validation and meets the node’s own 503', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  for (const path of ['/v2/orderbook?currency=USD&limit=500', '/v2/orderbook/table?currency=USD&limit=500']) {
    const answer = await gateway.request('GET', path);
    t.is(answer.status, 503, path);
    t.is(answer.body.errorCode, 'ORDERBOOK_UNAVAILABLE', path);
  }
});
