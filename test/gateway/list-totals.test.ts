/**
 * List totals stop counting at a cap (docs/api-conventions.md, "List totals"): past it the
 * total reads the cap and totalCapped says counting stopped; at or under it the total is
 * exact. The node's cap is 10,000; these nodes lower it so a few orders pass it.
 */
import test from 'ava';
import { TOTAL_CAP } from '../../gateway/paged-views.js';
import { answerOf } from '../support/checkout.js';
import { startTestGateway } from '../support/gateway.js';

test('a node caps list totals at 10,000', (t) => {
  t.is(TOTAL_CAP, 10_000);
});

test('the order list and search: a total past the cap reads the cap and says so; at the cap it is exact', async (t) => {
  const gateway = await startTestGateway({}, { totalCap: 3 });
  t.teardown(() => gateway.stop());
  const { liveKey } = await gateway.createMerchant();
  for (const customer of ['Ada Lovelace', 'Ada Byron', 'Ada King', 'Grace Hopper']) {
    answerOf(await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '1', notes: { customer } } }), 201, customer);
  }
  const list = async (query: string) => answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders?${query}`, { key: liveKey }), 200, query);

  const all = await list('limit=10');
  t.like(all, { total: 3, totalCapped: true, page: 1, limit: 10 });
  t.is(all.orders.length, 4, 'the page itself is not capped');
  t.like(await list('search=Ada'), { total: 3, totalCapped: false });
  t.like(await list('search=Grace'), { total: 1, totalCapped: false });
  t.like(await list('search=Nobody'), { total: 0, totalCapped: false, orders: [] });
});

test('the payment list caps its total the same way', async (t) => {
  const gateway = await startTestGateway({}, { totalCap: 2 });
  t.teardown(() => gateway.stop());
  const { sandboxKey } = await gateway.createMerchant();
  const list = async () => answerOf(await gateway.request('GET', '/api/v1/merchants/me/payments', { key: sandboxKey }), 200, 'payments');
  for (let i = 0; i < 2; i++) answerOf(await gateway.request('POST', '/api/v1/sandbox/test-order', { key: sandboxKey, body: {} }), 201, 'test order');
  t.like(await list(), { total: 2, totalCapped: false });
  answerOf(await gateway.request('POST', '/api/v1/sandbox/test-order', { key: sandboxKey, body: {} }), 201, 'test order');
  const capped = await list();
  t.like(capped, { total: 2, totalCapped: true });
  t.is(capped.payments.length, 3);
});
