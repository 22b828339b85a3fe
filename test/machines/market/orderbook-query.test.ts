/** The orderbook's sorting, filtering and paging over one snapshot, on hand-made rows. */
import test from 'ava';
import { DEFAULT_DIRECTION, queryOrderbook, snapshotOf, type OrderbookQuery, type OrderbookThresholds } from '../../../machines/market/orderbook-query.js';
import type { RankedRow, RowFacts, RowKeys } from '../../../machines/market/orderbook-rows.js';

const USDC = 1_000_000n;
const TOKEN = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const thresholds: OrderbookThresholds = { dustUsdc: USDC, extremeSpreadBps: 2_000n };

function ranked(id: string, keys: Partial<RowKeys>, facts: Partial<RowFacts> = {}): RankedRow {
  const full: RowKeys = {
    rate: 10n ** 18n,
    available: 100n * USDC,
    intentMin: USDC,
    intentMax: 50n * USDC,
    takeable: 50n * USDC,
    spreadBps: 0n,
    aprBps: null,
    ...keys,
  };
  return {
    keys: full,
    facts: { depositIdOnContract: id, paymentPlatform: 'venmo', currency: 'USD', isPrivate: false, sellerAutomatedReleaseAvailable: false, ...facts },
    get row(): never {
      throw new Error('a query reads no wire field');
    },
  };
}

const query = (overrides: Partial<OrderbookQuery> = {}): OrderbookQuery => ({
  currency: 'USD',
  paymentPlatform: undefined,
  sortBy: 'price',
  sortDirection: 'asc',
  chainId: 8453,
  token: TOKEN,
  publicOnly: false,
  limit: 200,
  offset: 0,
  amount: null,
  showSmallOrders: false,
  hideExtremeSpread: true,
  sellerAutomatedRelease: 'include',
  ...overrides,
});

const ids = (rows: RankedRow[], asked: Partial<OrderbookQuery> = {}) =>
  queryOrderbook(
    snapshotOf(rows, { generatedAt: '2026-11-24T00:00:00.000Z', chainId: 8453, token: TOKEN, depositCount: rows.length }),
    query(asked),
    thresholds,
  ).rows.map(({ facts }) => facts.depositIdOnContract);

test('each sort field has document 3’s default direction', (t) => {
  t.deepEqual(DEFAULT_DIRECTION, { price: 'asc', available: 'desc', limits: 'desc', apr: 'desc' });
});

test('by price, cheapest first; equal prices deepest first, then by deposit id', (t) => {
  const rows = [
    ranked('1', { rate: 3n }),
    ranked('2', { rate: 1n, available: 10n * USDC }),
    ranked('3', { rate: 1n, available: 20n * USDC }),
    ranked('4', { rate: 1n, available: 20n * USDC }),
  ];
  t.deepEqual(ids(rows), ['3', '4', '2', '1']);
  t.deepEqual(ids(rows, { sortDirection: 'desc' }), ['1', '3', '4', '2']);
});

test('by available, by what one intent can take (limits), and by APR with rows without one last either way', (t) => {
  const rows = [
    ranked('1', { available: 5n * USDC, takeable: 5n * USDC, aprBps: 300n }),
    ranked('2', { available: 50n * USDC, takeable: 40n * USDC, aprBps: null }),
    ranked('3', { available: 30n * USDC, takeable: 30n * USDC, aprBps: -5n }),
  ];
  t.deepEqual(ids(rows, { sortBy: 'available', sortDirection: 'desc' }), ['2', '3', '1']);
  t.deepEqual(ids(rows, { sortBy: 'limits', sortDirection: 'desc' }), ['2', '3', '1']);
  t.deepEqual(ids(rows, { sortBy: 'limits', sortDirection: 'asc' }), ['1', '3', '2']);
  t.deepEqual(ids(rows, { sortBy: 'apr', sortDirection: 'desc' }), ['1', '3', '2']);
  t.deepEqual(ids(rows, { sortBy: 'apr', sortDirection: 'asc' }), ['3', '1', '2']);
});

test('an amount keeps the rows whose smallest intent and takeable amount bracket it', (t) => {
  const rows = [ranked('1', { intentMin: 10n * USDC }), ranked('2', { takeable: 9n * USDC }), ranked('3', {})];
  t.deepEqual(ids(rows, { amount: 10n * USDC }), ['1', '3']);
  t.deepEqual(ids(rows, { amount: 9n * USDC }), ['2', '3']);
  t.deepEqual(ids(rows, { amount: 50n * USDC + 1n }), []);
});

test('dust (below the threshold, or unable to take its own smallest intent) shows only when asked', (t) => {
  const rows = [
    ranked('1', { available: USDC - 1n, takeable: USDC - 1n, intentMin: 1n }),
    ranked('2', { available: 5n * USDC, takeable: 5n * USDC, intentMin: 6n * USDC }),
    ranked('3', {}),
  ];
  t.deepEqual(ids(rows), ['3']);
  t.deepEqual(ids(rows, { showSmallOrders: true }), ['3', '2', '1']);
});

test('an extreme spread either way is hidden by default; a row without a reference rate is not', (t) => {
  const rows = [ranked('1', { spreadBps: 2_001n }), ranked('2', { spreadBps: -2_001n }), ranked('3', { spreadBps: 2_000n }), ranked('4', { spreadBps: null })];
  t.deepEqual(ids(rows), ['3', '4']);
  t.deepEqual(ids(rows, { hideExtremeSpread: false }), ['1', '2', '3', '4']);
});

test('platform, privacy and automated release filter', (t) => {
  const rows = [ranked('1', {}, { paymentPlatform: 'wise' }), ranked('2', {}, { isPrivate: true }), ranked('3', {}, { sellerAutomatedReleaseAvailable: true })];
  t.deepEqual(ids(rows, { paymentPlatform: 'wise' }), ['1']);
  t.deepEqual(ids(rows, { publicOnly: true }), ['1', '3']);
  t.deepEqual(ids(rows, { sellerAutomatedRelease: 'exclude' }), ['1', '2']);
  t.deepEqual(ids(rows, { sellerAutomatedRelease: 'only' }), ['3']);
});

test('a page is counted against every matching row; another currency, chain or token has none', (t) => {
  const rows = ['1', '2', '3', '4', '5'].map((id) => ranked(id, { rate: BigInt(id) }));
  const snapshot = snapshotOf([...rows, ranked('9', {}, { currency: 'EUR' })], { generatedAt: '', chainId: 8453, token: TOKEN, depositCount: 6 });
  const page = queryOrderbook(snapshot, query({ limit: 2, offset: 1 }), thresholds);
  t.deepEqual(
    page.rows.map(({ facts }) => facts.depositIdOnContract),
    ['2', '3'],
  );
  t.is(page.total, 5);
  t.is(queryOrderbook(snapshot, query({ offset: 10 }), thresholds).total, 5);
  t.is(queryOrderbook(snapshot, query({ currency: 'EUR' }), thresholds).total, 1);
  t.is(queryOrderbook(snapshot, query({ currency: 'GBP' }), thresholds).total, 0);
  t.is(queryOrderbook(snapshot, query({ chainId: 1 }), thresholds).total, 0);
  t.is(queryOrderbook(snapshot, query({ token: TOKEN.toLowerCase() }), thresholds).total, 5, 'an address in any case');
  t.is(queryOrderbook(snapshot, query({ token: '0x0000000000000000000000000000000000000001' }), thresholds).total, 0);
});

test('without a count the pass ends at the page’s last row', (t) => {
  const rows = ['1', '2', '3', '4', '5'].map((id) => ranked(id, { rate: BigInt(id) }));
  const snapshot = snapshotOf(rows, { generatedAt: '', chainId: 8453, token: TOKEN, depositCount: 5 });
  const page = queryOrderbook(snapshot, query({ limit: 2, offset: 1 }), thresholds, false);
  t.deepEqual(
    page.rows.map(({ facts }) => facts.depositIdOnContract),
    ['2', '3'],
  );
  t.is(page.total, 3, 'counted only as far as the page');
});
