/**
 * GET /api/v1/payouts (document 2): newest first; customerEmail exact and case-insensitive,
 * status, merchantReference exact; page and limit (1 to 100); the total of what matches;
 * only the merchant's own payouts.
 */
import test from 'ava';
import { payoutBody } from '../../support/payout-fakes.js';
import { newKey, payoutWorld } from './payout-world.js';

test('filters, order, paging and total; another merchant’s payouts are not listed', async (t) => {
  const world = await payoutWorld(t);
  const other = await world.otherMerchant();
  const made: Array<{ payoutId: string }> = [];
  for (const [email, reference] of [
    ['ana@example.com', 'inv-1'],
    ['Bob@Example.com', 'inv-2'],
    ['ANA@example.com', 'INV-1'],
    ['carla@example.com', undefined],
    ['ana@example.com', 'inv-1'],
  ] as const) {
    made.push(await world.created(payoutBody({ customerEmail: email, ...(reference ? { merchantReference: reference } : {}) }), newKey()));
    await world.advance(1_000);
  }
  t.is((await world.create(payoutBody({ customerEmail: 'ana@example.com', merchantReference: 'inv-1' }), newKey(), other.liveKey)).status, 201);
  t.is((await world.cancel(made[3]!.payoutId)).status, 200);

  const list = async (query = '') => {
    const answer = await world.list(query);
    t.is(answer.status, 200, `${query}: ${JSON.stringify(answer.body)}`);
    return answer.body.responseObject as { items: any[]; page: number; limit: number; total: number };
  };
  const ids = (page: { items: any[] }) => page.items.map((item) => item.payoutId);
  const newestFirst = made.map((payout) => payout.payoutId).reverse();

  const all = await list();
  t.deepEqual(ids(all), newestFirst, 'every payout of the merchant, newest first, the other merchant’s left out');
  t.like(all, { page: 1, limit: 20, total: 5 });

  t.deepEqual(
    ids(await list('customerEmail=ANA%40EXAMPLE.COM')),
    [made[4], made[2], made[0]].map((payout) => payout!.payoutId),
  );
  t.deepEqual(ids(await list('customerEmail=bob%40example.com')), [made[1]!.payoutId]);
  t.is((await list('customerEmail=ana%40example.co')).total, 0, 'exact, not a prefix');
  t.is((await list('customerEmail=example.com')).total, 0);

  t.deepEqual(
    ids(await list('merchantReference=inv-1')),
    [made[4], made[0]].map((payout) => payout!.payoutId),
    'exact, case counts',
  );
  t.deepEqual(ids(await list('merchantReference=INV-1')), [made[2]!.payoutId]);
  t.is((await list('merchantReference=inv')).total, 0);

  t.deepEqual(ids(await list('status=CANCELLED')), [made[3]!.payoutId]);
  t.is((await list('status=AWAITING_FUNDING')).total, 4);
  t.is((await list('status=FUNDED')).total, 0);
  t.deepEqual(
    ids(await list('status=AWAITING_FUNDING&customerEmail=ana%40example.com&merchantReference=inv-1')),
    [made[4], made[0]].map((p) => p!.payoutId),
  );

  const first = await list('limit=2');
  const second = await list('limit=2&page=2');
  const third = await list('limit=2&page=3');
  const past = await list('limit=2&page=4');
  t.like(first, { page: 1, limit: 2, total: 5 });
  t.deepEqual([...ids(first), ...ids(second), ...ids(third)], newestFirst);
  t.like(past, { page: 4, limit: 2, total: 5, items: [] });
  t.is((await list('limit=100')).items.length, 5);

  for (const query of ['limit=0', 'limit=101', 'page=0', 'status=OPEN', 'unknown=1']) {
    const refused = await world.list(query);
    t.is(refused.status, 400, query);
    t.is(refused.body.errorCode, undefined, query);
  }

  const theirs = (await world.list('', other.liveKey)).body.responseObject;
  t.is(theirs.total, 1);
  t.false(theirs.items.some((item: any) => newestFirst.includes(item.payoutId)));
});
