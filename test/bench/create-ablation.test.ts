import test from 'ava';
import { ablateCreates, createAblation } from './create-ablation.js';
import { withMerchant } from '../support/gateway.js';

const body = { requestedUsdcAmount: '25', notes: { sku: 'bench' } };

/** What two creates of one body share: the order without what every create makes anew. */
function sameAcrossCreates(order: Record<string, unknown>) {
  const { id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...rest } = order;
  return rest;
}

for (const mode of ['turn', 'canned'] as const) {
  test(`an ablated create (${mode}) answers as a real one does and stores nothing`, async (t) => {
    await withMerchant(async (gateway, merchant) => {
      const real = await gateway.request('POST', '/api/v1/orders', { key: merchant.liveKey, body });
      ablateCreates(gateway.node.system, mode);
      // A canned node's first create runs as built, to have a reply to give.
      await gateway.request('POST', '/api/v1/orders', { key: merchant.liveKey, body });
      const ablated = await gateway.request('POST', '/api/v1/orders', { key: merchant.liveKey, body });

      t.is(ablated.status, 201);
      t.not(ablated.body.responseObject.order.id, real.body.responseObject.order.id);
      t.deepEqual(sameAcrossCreates(ablated.body.responseObject.order), sameAcrossCreates(real.body.responseObject.order));
      t.is(typeof ablated.body.responseObject.orderToken, 'string');
      t.is((await gateway.request('GET', `/api/v1/orders/${ablated.body.responseObject.order.id}`)).status, 404);
      t.is((await gateway.request('GET', `/api/v1/orders/${real.body.responseObject.order.id}`)).status, 200);
    });
  });
}

test('BENCH_ABLATION names turn or canned, or nothing', (t) => {
  t.is(createAblation(undefined), null);
  t.is(createAblation(''), null);
  t.is(createAblation('turn'), 'turn');
  t.is(createAblation('canned'), 'canned');
  t.throws(() => createAblation('store'), { message: /turn or canned/ });
});
