/**
 * Sandbox test clocks over HTTP (docs/test-clocks.md): the endpoints and their rules, and
 * the point of them: a payment window on a test clock closes when the clock is advanced
 * past it, never on the node's own time, and nothing on the node's time feels the clock.
 */
import test from 'ava';
import { FIAT_RAILS } from '../../machines/rails.js';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { HOUR_MS, advance, answerOf, isoNow, placeOrder, startPayment, type PlacedOrder } from '../support/checkout.js';

const MINUTE_MS = 60_000;

async function node(t: { teardown(fn: () => Promise<void>): void }) {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  return { gateway, merchant: await gateway.createMerchant() };
}

const clocks = (gateway: TestGateway, key: string) => ({
  create: (body?: unknown) => gateway.request('POST', '/api/v1/test-clocks', { key, body }),
  list: (query = '') => gateway.request('GET', `/api/v1/test-clocks${query}`, { key }),
  read: (id: string) => gateway.request('GET', `/api/v1/test-clocks/${id}`, { key }),
  advance: (id: string, frozenTime: string) => gateway.request('POST', `/api/v1/test-clocks/${id}/advance`, { key, body: { frozenTime } }),
  remove: (id: string) => gateway.request('DELETE', `/api/v1/test-clocks/${id}`, { key }),
});

/** The advance's firings and the effects they queued, done; then the clock reads ready. */
async function settled(gateway: TestGateway, key: string, id: string) {
  await gateway.node.system.effectsIdle();
  return answerOf(await clocks(gateway, key).read(id), 200, 'clock read');
}

const paymentOf = async (order: PlacedOrder, id: string) => answerOf(await order.customer('GET', `/payments/${id}`), 200, 'payment read');
const listRow = async (gateway: TestGateway, key: string, orderId: string) =>
  answerOf(await gateway.request('GET', `/api/v1/merchants/me/orders?orderId=${orderId}`, { key }), 200, 'order list').orders[0];

test('create, list, read and delete a test clock; a live key and another merchant reach none of it', async (t) => {
  const { gateway, merchant } = await node(t);
  const own = clocks(gateway, merchant.sandboxKey);
  const created = await own.create({ name: 'renewals' });
  t.is(created.status, 201);
  const clock = created.body.responseObject;
  t.like(clock, { name: 'renewals', frozenTime: isoNow(gateway), status: 'ready', advancingTo: null, createdAt: isoNow(gateway) }, 'frozen at now by default');
  t.regex(clock.id, /^clk_[0-9A-Za-z]{24}$/);
  await advance(gateway, MINUTE_MS);
  const later = answerOf(await own.create({ frozenTime: '2027-01-01T00:00:00+01:00' }), 201, 'second clock');
  t.is(later.frozenTime, '2026-12-31T23:00:00.000Z');
  t.like(await own.create({ frozenTime: '2030-01-01T00:00:00Z' }), { status: 400 });

  t.like(answerOf(await own.list(), 200, 'list'), { total: 2, page: 1, limit: 20 });
  t.deepEqual(
    answerOf(await own.list('?limit=1&page=2'), 200, 'page 2').testClocks.map((row: { id: string }) => row.id),
    [clock.id],
  );
  t.deepEqual(answerOf(await own.read(clock.id), 200, 'read'), clock);

  const live = clocks(gateway, merchant.liveKey);
  for (const refused of [
    await live.create({}),
    await live.list(),
    await live.read(clock.id),
    await live.advance(clock.id, isoNow(gateway, HOUR_MS)),
    await live.remove(clock.id),
  ]) {
    t.like(refused, { status: 403, body: { errorCode: 'TEST_CLOCK_SANDBOX_ONLY', success: false } });
  }
  const liveOrder = await gateway.request('POST', '/api/v1/orders', { key: merchant.liveKey, body: { requestedUsdcAmount: '5', testClockId: clock.id } });
  t.like(liveOrder, { status: 403, body: { errorCode: 'TEST_CLOCK_SANDBOX_ONLY' } });
  t.like(answerOf(await own.read(clock.id), 200, 'read'), { status: 'ready', frozenTime: clock.frozenTime }, 'a live key changed nothing');

  const other = await gateway.createMerchant({ name: 'Other', tier: 'BASE', evmWalletAddress: '0x3333333333333333333333333333333333333333' });
  const theirs = clocks(gateway, other.sandboxKey);
  t.like(await theirs.read(clock.id), { status: 404, body: { errorCode: 'TEST_CLOCK_NOT_FOUND' } });
  t.like(await theirs.advance(clock.id, isoNow(gateway, HOUR_MS)), { status: 404 });
  t.like(await theirs.remove(clock.id), { status: 404 });
  t.like(answerOf(await theirs.list(), 200, 'their list'), { total: 0, testClocks: [] });
  const theirOrder = await gateway.request('POST', '/api/v1/orders', { key: other.sandboxKey, body: { requestedUsdcAmount: '5', testClockId: clock.id } });
  t.like(theirOrder, { status: 404, body: { errorCode: 'TEST_CLOCK_NOT_FOUND' } });

  t.deepEqual(answerOf(await own.remove(clock.id), 200, 'delete'), { id: clock.id, deleted: true });
  t.like(await own.read(clock.id), { status: 404 });
  t.like(await own.remove(clock.id), { status: 404 });
  t.like(answerOf(await own.list(), 200, 'list'), { total: 1 });
  const deletedOrder = await gateway.request('POST', '/api/v1/orders', { key: merchant.sandboxKey, body: { requestedUsdcAmount: '5', testClockId: clock.id } });
  t.like(deletedOrder, { status: 404, body: { errorCode: 'TEST_CLOCK_NOT_FOUND' } });
});

test('an advance must move the clock forward by at most two years', async (t) => {
  const { gateway, merchant } = await node(t);
  const own = clocks(gateway, merchant.sandboxKey);
  const clock = answerOf(await own.create(), 201, 'clock');
  t.like(await own.advance(clock.id, clock.frozenTime), { status: 400, body: { errorCode: 'TEST_CLOCK_TIME_NOT_LATER' } });
  t.like(await own.advance(clock.id, isoNow(gateway, -MINUTE_MS)), { status: 400, body: { errorCode: 'TEST_CLOCK_TIME_NOT_LATER' } });
  t.like(await own.advance(clock.id, isoNow(gateway, 731 * 24 * HOUR_MS)), { status: 400, body: { errorCode: 'TEST_CLOCK_ADVANCE_TOO_FAR' } });
  t.like(await own.advance(clock.id, 'tomorrow'), { status: 400 });
  const advancing = answerOf(await own.advance(clock.id, isoNow(gateway, 730 * 24 * HOUR_MS)), 200, 'advance');
  t.like(advancing, { status: 'advancing', advancingTo: isoNow(gateway, 730 * 24 * HOUR_MS) });
  t.like(await settled(gateway, merchant.sandboxKey, clock.id), { status: 'ready', frozenTime: isoNow(gateway, 730 * 24 * HOUR_MS), advancingTo: null });
});

test('a payment window on a test clock closes only when the clock passes it; an order off the clock never feels it', async (t) => {
  const { gateway, merchant } = await node(t);
  const key = merchant.sandboxKey;
  const own = clocks(gateway, key);
  const clock = answerOf(await own.create(), 201, 'clock');
  const attached = await placeOrder(gateway, key, { requestedUsdcAmount: '25', testClockId: clock.id });
  const onClock = await startPayment(attached, { rail: 'venmo' });
  t.is(onClock.status, 'CREATED');

  // The node's own time moves three hours: the window (document 1: one hour) of the attached payment stays open.
  await advance(gateway, 3 * HOUR_MS);
  t.is((await paymentOf(attached, onClock.id)).status, 'CREATED');
  t.like(await listRow(gateway, key, attached.id), { status: 'CREATED', hasActivePayment: true, hasExpiredPayment: false });

  const unattached = await placeOrder(gateway, key, { requestedUsdcAmount: '25' });
  const offClock = await startPayment(unattached, { rail: 'venmo' });

  answerOf(await own.advance(clock.id, new Date(Date.parse(clock.frozenTime) + 59 * MINUTE_MS).toISOString()), 200, 'advance 59 minutes');
  await settled(gateway, key, clock.id);
  t.is((await paymentOf(attached, onClock.id)).status, 'CREATED', 'short of the window');

  answerOf(await own.advance(clock.id, new Date(Date.parse(clock.frozenTime) + 61 * MINUTE_MS).toISOString()), 200, 'advance to 61 minutes');
  t.like(await settled(gateway, key, clock.id), { status: 'ready', frozenTime: new Date(Date.parse(clock.frozenTime) + 61 * MINUTE_MS).toISOString() });
  t.is((await paymentOf(attached, onClock.id)).status, 'EXPIRED');
  t.like(await listRow(gateway, key, attached.id), { status: 'CREATED', hasActivePayment: false, hasExpiredPayment: true });
  t.is((await paymentOf(unattached, offClock.id)).status, 'CREATED', 'the test clock leaves an order off it alone');

  await advance(gateway, 2 * HOUR_MS);
  t.is((await paymentOf(unattached, offClock.id)).status, 'EXPIRED', 'its window ran on the node’s time');
});

test('a crypto attempt on a test clock is quoted on the clock, so its window runs from the clock’s time', async (t) => {
  const { gateway, merchant } = await node(t);
  const key = merchant.sandboxKey;
  const rail = 'relay_42161';
  t.is((await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.sandboxId}`, { enabledRails: [...FIAT_RAILS, rail] })).status, 200);
  const clock = answerOf(await clocks(gateway, key).create({ frozenTime: '2027-03-01T09:00:00.000Z' }), 201, 'clock');
  const order = await placeOrder(gateway, key, { requestedUsdcAmount: '25', testClockId: clock.id });
  const payment = answerOf(await order.customer('POST', '/payments', { rail }), 201, 'crypto attempt');
  t.is(payment.createdAt, clock.frozenTime);
  t.is(payment.quoteExpiresAt, '2027-03-01T15:00:00.000Z', 'six hours from the clock’s time');
});
