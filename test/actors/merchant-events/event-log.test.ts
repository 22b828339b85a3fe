import test from 'ava';
import { EmbeddedStore, TestClock } from '../../../actors/index.js';
import { EVENT_RETENTION_MS, MerchantEventLog, type NewEventRecord } from '../../../actors/merchant-events/index.js';

const MINUTE = 60 * 1000;

function event(id: string, overrides: Partial<NewEventRecord> = {}): NewEventRecord {
  return { _id: id, merchantId: 'mer_a', type: 'ORDER_CREATED', orderId: 'ord_1', paymentId: null, payload: { id, type: 'ORDER_CREATED' }, ...overrides };
}

test('an event recorded twice keeps its first row: the same sequence number and body', async (t) => {
  const log = await MerchantEventLog.open(new EmbeddedStore(), new TestClock());
  const first = await log.record(event('evt_1'));
  const again = await log.record(event('evt_1', { payload: { id: 'evt_1', changed: true } }));
  t.deepEqual(again, first);
  t.is((await log.page({ merchantId: 'mer_a' }, { page: 1, limit: 10 }, 100)).counted, 1);
});

test('a recorder that takes over from another never reuses a sequence number', async (t) => {
  const store = new EmbeddedStore();
  const clock = new TestClock();
  const [old, taker] = [await MerchantEventLog.open(store, clock), await MerchantEventLog.open(store, clock)];
  await old.record(event('evt_1'));
  await taker.record(event('evt_2'));
  // The old one still believes 2 is next: it collides, reads the newest again and takes 3.
  const third = await old.record(event('evt_3'));
  t.is(third.seq, 3);
  const rows = await old.after({ merchantId: 'mer_a' }, 0, 10);
  t.deepEqual(
    rows.map((row) => [row._id, row.seq]),
    [
      ['evt_1', 1],
      ['evt_2', 2],
      ['evt_3', 3],
    ],
  );
});

test('rows are read by account, type, order and payment, in recording order', async (t) => {
  const log = await MerchantEventLog.open(new EmbeddedStore(), new TestClock());
  await log.record(event('evt_1'));
  await log.record(event('evt_2', { merchantId: 'mer_b' }));
  await log.record(event('evt_3', { type: 'PAYMENT_CREATED', paymentId: 'pay_1' }));
  await log.record(event('evt_4', { type: 'ORDER_CREATED', orderId: 'ord_2' }));
  const ids = (rows: Array<{ _id: string }>) => rows.map((row) => row._id);
  t.deepEqual(ids((await log.page({ merchantId: 'mer_a' }, { page: 1, limit: 10 }, 100)).rows), ['evt_4', 'evt_3', 'evt_1']);
  t.deepEqual(ids((await log.page({ merchantId: 'mer_a', types: ['PAYMENT_CREATED'] }, { page: 1, limit: 10 }, 100)).rows), ['evt_3']);
  t.deepEqual(ids((await log.page({ merchantId: 'mer_a', orderId: 'ord_1' }, { page: 1, limit: 10 }, 100)).rows), ['evt_3', 'evt_1']);
  t.deepEqual(ids((await log.page({ merchantId: 'mer_a', paymentId: 'pay_1' }, { page: 1, limit: 10 }, 100)).rows), ['evt_3']);
  t.deepEqual(ids(await log.after({ merchantId: 'mer_a' }, 1, 10)), ['evt_3', 'evt_4']);
  t.is(await log.one('mer_b', 'evt_1'), null, 'another account’s event is not found by id');
});

test('past the retention a row is not read at once, and is deleted by the next hourly purge', async (t) => {
  const clock = new TestClock();
  const log = await MerchantEventLog.open(new EmbeddedStore(), clock);
  await log.record(event('evt_1'));
  t.is(await log.purgeIfDue(), 0);
  await clock.advance(EVENT_RETENTION_MS);
  t.truthy(await log.one('mer_a', 'evt_1'), 'kept for exactly the retention');
  await clock.advance(1);
  t.is(await log.one('mer_a', 'evt_1'), null);
  t.deepEqual(await log.after({ merchantId: 'mer_a' }, 0, 10), []);
  t.is(await log.purgeIfDue(), 1, 'an hour and more since the last purge');

  await log.record(event('evt_2'));
  await clock.advance(EVENT_RETENTION_MS - 30 * MINUTE);
  t.is(await log.purgeIfDue(), 0, 'nothing is past the retention yet');
  await clock.advance(31 * MINUTE);
  t.is(await log.one('mer_a', 'evt_2'), null);
  t.is(await log.purgeIfDue(), 0, 'the last purge was 31 minutes ago');
  await clock.advance(30 * MINUTE);
  t.is(await log.purgeIfDue(), 1);
});
