/**
 * The order list fields that payments make real (document 1, GET /api/v1/merchants/me/orders):
 * displayStatus ACTIVE, EXPIRED and CREATED, paymentSelectedRail, and search over the
 * payment's rail and railIdentifier. Sandbox attempts, so no chain is needed; the window
 * closes on the test clock.
 */
import test from 'ava';
import { startTestGateway, type TestGateway } from '../support/gateway.js';
import { attemptInput } from '../support/payment-flow.js';

const DESTINATION = '0x2222222222222222222222222222222222222222';

async function orderWithAttempt(gateway: TestGateway, key: string, paymentId: string) {
  const created = await gateway.request('POST', '/api/v1/orders', { key, body: { requestedUsdcAmount: '25', destinationAddress: DESTINATION } });
  const order = created.body.responseObject.order as { id: string; merchantId: string };
  const input = attemptInput({
    id: paymentId,
    orderId: order.id,
    merchantId: order.merchantId,
    owedUsdc: 25_000_000n,
    destination: DESTINATION,
    depositId: 'sandbox',
    chain: null,
    fees: gateway.node.payments.fees,
    at: new Date(gateway.clock.now()).toISOString(),
  });
  await gateway.node.system.askAt({ kind: 'payment', id: paymentId }, { type: 'CREATE', ...input });
  await gateway.node.system.effectsIdle();
  return order.id;
}

const ids = (body: { responseObject: { orders: Array<{ id: string }> } }) => body.responseObject.orders.map((order) => order.id).sort();

test('displayStatus follows the attempts: ACTIVE while one is open, EXPIRED once its window closed, CREATED after a cancel', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxKey } = await gateway.createMerchant();
  const untouched = (await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: { requestedUsdcAmount: '5', destinationAddress: DESTINATION } }))
    .body.responseObject.order.id;
  const active = await orderWithAttempt(gateway, sandboxKey, 'pay_listactive');
  const list = (query: string) => gateway.request('GET', `/api/v1/merchants/me/orders?${query}`, { key: sandboxKey });

  let answer = await list('displayStatus=ACTIVE');
  t.deepEqual(ids(answer.body), [active]);
  t.like(answer.body.responseObject.orders[0], { hasActivePayment: true, hasExpiredPayment: false, paymentSelectedRail: 'venmo' });
  t.deepEqual(ids((await list('displayStatus=CREATED')).body), [untouched]);

  await gateway.clock.advance(60 * 60 * 1000);
  await gateway.node.system.effectsIdle();
  answer = await list('displayStatus=EXPIRED');
  t.deepEqual(ids(answer.body), [active]);
  t.like(answer.body.responseObject.orders[0], { hasActivePayment: false, hasExpiredPayment: true, paymentSelectedRail: 'venmo' });
  t.deepEqual(ids((await list('displayStatus=ACTIVE')).body), []);

  const cancelled = await orderWithAttempt(gateway, sandboxKey, 'pay_listcancel');
  await gateway.node.system.askAt(
    { kind: 'payment', id: 'pay_listcancel' },
    { type: 'CANCEL', reason: 'CUSTOMER', at: new Date(gateway.clock.now()).toISOString() },
  );
  await gateway.node.system.effectsIdle();
  t.deepEqual(ids((await list('displayStatus=CREATED')).body), [cancelled, untouched].sort());
});

test('search finds an order by its payment’s railIdentifier and rail', async (t) => {
  const gateway = await startTestGateway();
  t.teardown(() => gateway.stop());
  const { sandboxKey } = await gateway.createMerchant();
  const paid = await orderWithAttempt(gateway, sandboxKey, 'pay_searchable');
  await gateway.request('POST', '/api/v1/orders', { key: sandboxKey, body: { requestedUsdcAmount: '5', destinationAddress: DESTINATION } });
  const search = (text: string) => gateway.request('GET', `/api/v1/merchants/me/orders?search=${encodeURIComponent(text)}`, { key: sandboxKey });
  t.deepEqual(ids((await search('sim_pay_searchable')).body), [paid]);
  t.deepEqual(ids((await search('VENMO')).body), [paid]);
});
