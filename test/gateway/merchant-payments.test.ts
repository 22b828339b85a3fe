/**
 * The merchant's payment endpoints over HTTP with an API key: the payment list across
 * orders (newest first, paged, filtered), one order's attempts (scoped to the key's
 * merchant and environment, 120 reads a minute per merchant) and quote availability.
 * Attempts are made as the customer makes them, through the checkout endpoints.
 */
import test from 'ava';
import { FIAT_RAILS, RAIL_CURRENCIES, ZELLE_BANKS } from '../../machines/rails.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { advance, isoNow, placeOrder, startPayment } from '../support/checkout.js';
import { REMEDIATION_READS_PER_MINUTE } from '../../gateway/payments/payment-operations.js';

async function node(t: { teardown(fn: () => Promise<void>): void }) {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  return gateway;
}

/**
 * Three attempts a minute apart, oldest first: a cancelled venmo attempt and a settled wise
 * attempt on one order, an open cashapp attempt on another.
 */
async function threeAttempts(gateway: TestGateway, key: string) {
  const first = await placeOrder(gateway, key);
  const second = await placeOrder(gateway, key);
  const cancelled = await startPayment(first, { rail: 'venmo' });
  await first.customer('POST', `/payments/${cancelled.id}/cancel`);
  await advance(gateway, 60_000);
  const settled = await startPayment(first, { rail: 'wise' });
  await first.customer('POST', `/payments/${settled.id}/simulate`);
  await advance(gateway, 60_000);
  const open = await startPayment(second, { rail: 'cashapp' });
  return { first, second, cancelled, settled, open };
}

const ids = (response: { body: { responseObject: { payments: Array<{ id: string }> } } }) => response.body.responseObject.payments.map((payment) => payment.id);

test('the payment list: newest first, paged with its total, each filter narrowing it, and a key seeing its own environment only', async (t) => {
  const gateway = await node(t);
  const { sandboxKey, liveKey } = await gateway.createMerchant();
  const { first, second, cancelled, settled, open } = await threeAttempts(gateway, sandboxKey);
  const list = (query = '', key = sandboxKey) => gateway.request('GET', `/api/v1/merchants/me/payments${query}`, { key });

  const all = await list();
  t.is(all.status, 200);
  t.deepEqual(ids(all), [open.id, settled.id, cancelled.id]);
  t.like(all.body.responseObject, { total: 3, page: 1, limit: 20 });
  const [openRow, settledRow, cancelledRow] = all.body.responseObject.payments;
  t.like(openRow, { orderId: second.id, status: 'CREATED', rail: 'cashapp', createdAt: isoNow(gateway) });
  t.like(settledRow, { orderId: first.id, status: 'SETTLED', rail: 'wise', currency: 'GBP', fulfillTransaction: `sim_${settled.id}` });
  t.like(cancelledRow, { orderId: first.id, status: 'CANCELLED', rail: 'venmo' });
  // A list row is the CheckoutPayment the customer read, less the hosted read's error fields.
  const { errorCode: _errorCode, errorMessage: _errorMessage, ...customerView } = (await second.customer('GET', `/payments/${open.id}`)).body.responseObject;
  const { errorCode: rowErrorCode, errorMessage: _rowMessage, ...rowView } = openRow;
  t.deepEqual(rowView, customerView);
  t.true(rowErrorCode === undefined || rowErrorCode === null);

  const paged = await list('?page=2&limit=2');
  t.deepEqual(ids(paged), [cancelled.id]);
  t.like(paged.body.responseObject, { total: 3, page: 2, limit: 2 });
  t.deepEqual(ids(await list('?page=1&limit=2')), [open.id, settled.id]);

  t.deepEqual(ids(await list('?status=SETTLED')), [settled.id]);
  t.deepEqual(ids(await list('?status=CANCELLED')), [cancelled.id]);
  t.is((await list('?status=SETTLED')).body.responseObject.total, 1);
  t.deepEqual(ids(await list('?rail=wise')), [settled.id]);
  t.deepEqual(ids(await list(`?orderId=${first.id}`)), [settled.id, cancelled.id]);
  t.deepEqual(ids(await list(`?orderId=${first.id}&status=CANCELLED`)), [cancelled.id]);
  // createdFrom is inclusive, createdTo exclusive: exactly the middle attempt's minute.
  const middle = encodeURIComponent(settledRow.createdAt);
  const after = encodeURIComponent(openRow.createdAt);
  t.deepEqual(ids(await list(`?createdFrom=${middle}&createdTo=${after}`)), [settled.id]);
  t.deepEqual(ids(await list(`?createdFrom=${middle}`)), [open.id, settled.id]);
  t.deepEqual(ids(await list(`?createdTo=${middle}`)), [cancelled.id]);
  // Sandbox payments touch no chain, so none is charged back: every one is NONE. test/gateway/chargebacks.test.ts charges
  // live payments back on the local chain and finds them, and only them, under CHARGEBACKED.
  t.deepEqual(ids(await list('?chargebackStatus=NONE')), [open.id, settled.id, cancelled.id]);
  t.deepEqual(ids(await list('?chargebackStatus=CHARGEBACKED')), []);

  for (const query of ['?limit=101', '?limit=0', '?page=0', '?status=PAID', '?createdFrom=yesterday', '?unknown=1']) {
    const refused = await list(query);
    t.is(refused.status, 400, query);
    t.is(refused.body.message, 'Invalid request', query);
  }
  t.deepEqual((await list('?limit=101')).body.responseObject.fieldErrors, { limit: ['must be at most 100'] });
  t.is((await list('?limit=100')).status, 200);

  // The live key of the same merchant sees none of the sandbox attempts.
  const live = await list('', liveKey);
  t.is(live.status, 200);
  t.deepEqual(live.body.responseObject, { payments: [], total: 0, totalCapped: false, page: 1, limit: 20 });
  t.deepEqual(ids(await list(`?orderId=${first.id}`, liveKey)), []);
  // Another merchant sees none of them either.
  const stranger = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  t.is((await list('', stranger.sandboxKey)).body.responseObject.total, 0);
  t.is((await gateway.request('GET', '/api/v1/merchants/me/payments')).status, 401);
});

test('one order’s attempts, newest first; 404 for another merchant’s order and for the other environment’s, as for none', async (t) => {
  const gateway = await node(t);
  const { sandboxKey, liveKey } = await gateway.createMerchant();
  const stranger = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  const { first, second, cancelled, settled, open } = await threeAttempts(gateway, sandboxKey);
  const attempts = (orderId: string, key = sandboxKey) => gateway.request('GET', `/api/v1/merchants/me/orders/${orderId}/payments`, { key });

  const firsts = await attempts(first.id);
  t.is(firsts.status, 200);
  t.deepEqual(ids(firsts), [settled.id, cancelled.id]);
  t.deepEqual(Object.keys(firsts.body.responseObject), ['payments']);
  t.deepEqual(ids(await attempts(second.id)), [open.id]);
  const untouched = await placeOrder(gateway, sandboxKey);
  t.deepEqual((await attempts(untouched.id)).body.responseObject, { payments: [] });

  const none = await attempts('ord_AAAAAAAAAAAAAAAAAAAAAAAA');
  t.is(none.status, 404);
  t.deepEqual(none.body, { success: false, message: 'Order not found', responseObject: null, statusCode: 404, errorCode: 'NOT_FOUND' });
  const foreign = await attempts(first.id, stranger.sandboxKey);
  t.is(foreign.status, 404);
  t.is(JSON.stringify(foreign.body), JSON.stringify(none.body));
  const otherEnvironment = await attempts(first.id, liveKey);
  t.is(otherEnvironment.status, 404);
  t.is(JSON.stringify(otherEnvironment.body), JSON.stringify(none.body));
  // And the other way round: a live order is not the sandbox key's.
  const liveOrder = await placeOrder(gateway, liveKey);
  t.is((await attempts(liveOrder.id, liveKey)).status, 200);
  t.is((await attempts(liveOrder.id)).status, 404);
  t.is((await attempts('not-an-order')).status, 400);
});

test('one order’s attempts: 120 reads a minute per merchant, the 121st is 429 with x-retry-after, another merchant unaffected', async (t) => {
  // This limiter runs on real time, not the test clock: the reads below are well inside one minute.
  const gateway = await node(t);
  const { sandboxKey } = await gateway.createMerchant();
  const stranger = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' });
  const order = await placeOrder(gateway, sandboxKey);
  const theirs = await placeOrder(gateway, stranger.sandboxKey);
  const read = (orderId: string, key: string) => gateway.request('GET', `/api/v1/merchants/me/orders/${orderId}/payments`, { key });

  t.is(REMEDIATION_READS_PER_MINUTE, 120);
  const statuses: number[] = [];
  for (let n = 0; n < REMEDIATION_READS_PER_MINUTE; n++) statuses.push((await read(order.id, sandboxKey)).status);
  t.deepEqual(statuses, Array(REMEDIATION_READS_PER_MINUTE).fill(200));

  const limited = await read(order.id, sandboxKey);
  t.is(limited.status, 429);
  t.deepEqual(limited.body, { success: false, message: 'Too many requests', responseObject: null, statusCode: 429 });
  const retryAfter = Number(limited.headers.get('x-retry-after'));
  t.true(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `x-retry-after ${limited.headers.get('x-retry-after')}`);
  t.is(limited.headers.get('x-rate-limit-remaining'), '0');
  t.false(Number.isNaN(Date.parse(limited.headers.get('x-rate-limiter-resets-at') ?? '')));
  // Per merchant, not per address: the other merchant's reads from the same client still pass.
  t.is((await read(theirs.id, stranger.sandboxKey)).status, 200);
  // The limit is on these reads only: the merchant's payment list still answers.
  t.is((await gateway.request('GET', '/api/v1/merchants/me/payments', { key: sandboxKey })).status, 200);
});

test('quote availability: a sandbox amount is available on every offer asked, with no suggestions; the fiat mode needs a currency; bad amounts are 400', async (t) => {
  const gateway = await node(t);
  const { sandboxKey } = await gateway.createMerchant();
  const availability = (body: unknown) => gateway.request('POST', '/api/v1/merchants/me/quotes/availability', { key: sandboxKey, body });

  // An offer is one rail, each Zelle bank counting once; a sandbox merchant is quoted on a stand-in for each.
  const offers = FIAT_RAILS.filter((rail) => rail !== 'zelle').length + ZELLE_BANKS.length;
  const all = await availability({ amount: '25' });
  t.is(all.status, 200);
  t.deepEqual(all.body.responseObject, { available: true, quoteCount: offers, nearbySuggestions: [] });
  t.deepEqual((await availability({ amount: '25', enabledRails: ['venmo'] })).body.responseObject, { available: true, quoteCount: 1, nearbySuggestions: [] });
  t.deepEqual((await availability({ amount: '25', enabledRails: ['zelle'] })).body.responseObject, {
    available: true,
    quoteCount: ZELLE_BANKS.length,
    nearbySuggestions: [],
  });
  // In EUR only the rails that send EUR count.
  const eurRails = FIAT_RAILS.filter((rail) => RAIL_CURRENCIES[rail].includes('EUR')).length;
  t.true(eurRails > 0 && eurRails < offers);
  t.deepEqual((await availability({ amount: '25', quoteMode: 'EXACT_FIAT', fiatCurrency: 'EUR' })).body.responseObject, {
    available: true,
    quoteCount: eurRails,
    nearbySuggestions: [],
  });

  const noCurrency = await availability({ amount: '25', quoteMode: 'EXACT_FIAT' });
  t.is(noCurrency.status, 400);
  t.deepEqual(Object.keys(noCurrency.body.responseObject.fieldErrors), ['fiatCurrency']);

  for (const body of [
    { amount: 'abc' },
    { amount: '0' },
    { amount: '-1' },
    { amount: '1.1234567' },
    { amount: '1.234', quoteMode: 'EXACT_FIAT', fiatCurrency: 'EUR' },
    { amount: 25 },
    {},
  ]) {
    const bad = await availability(body);
    t.is(bad.status, 400, JSON.stringify(body));
    t.is(bad.body.message, 'Invalid request', JSON.stringify(body));
  }
  t.deepEqual((await availability({ amount: '0' })).body.responseObject.fieldErrors, { amount: ['must be above zero'] });
  t.is((await gateway.request('POST', '/api/v1/merchants/me/quotes/availability', { body: { amount: '25' } })).status, 401);
});
