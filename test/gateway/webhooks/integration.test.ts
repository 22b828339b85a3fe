import test from 'ava';
import { answerOf } from '../../support/checkout.js';
import { startTestGateway } from '../../support/gateway.js';
import { startReceiver } from '../../support/webhook-receiver.js';

test('the sandbox test order pays a sandbox order through the simulator and the endpoint hears the whole checkout; a live key is refused', async (t) => {
  const gateway = await startTestGateway({ WEBHOOK_ALLOW_PRIVATE: true });
  t.teardown(() => gateway.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const merchant = await gateway.createMerchant();
  answerOf(await gateway.request('POST', '/api/v1/webhooks', { key: merchant.sandboxKey, body: { url: receiver.url } }), 201, 'webhook');

  const refused = await gateway.request('POST', '/api/v1/sandbox/test-order', { key: merchant.liveKey, body: {} });
  t.is(refused.status, 403);
  t.is(refused.body.errorCode, 'SANDBOX_ONLY');
  t.is(
    answerOf(await gateway.request('GET', '/api/v1/merchants/me/orders', { key: merchant.liveKey }), 200, 'orders').total,
    0,
    'a refused test order makes nothing',
  );

  const paid = answerOf(
    await gateway.request('POST', '/api/v1/sandbox/test-order', { key: merchant.sandboxKey, body: { requestedUsdcAmount: '12.5' } }),
    201,
    'test order',
  );
  t.is(paid.order.status, 'FULFILLED');
  t.is(paid.order.requestedUsdcAmount, '12.5');
  t.is(paid.payment.status, 'SETTLED');
  await receiver.until(() => receiver.delivered().length === 4);
  t.deepEqual(
    receiver.delivered().map((event) => event.type),
    ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED'],
  );
  t.true(receiver.delivered().every((event) => (event.data.order?.id ?? event.data.payment.orderId) === paid.order.id));
});

test('the integration status follows what the merchant has done, from both accounts, whichever key asks', async (t) => {
  const gateway = await startTestGateway({ WEBHOOK_ALLOW_PRIVATE: true });
  t.teardown(() => gateway.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const merchant = await gateway.createMerchant({ name: 'Acme', tier: 'BASE' });
  const status = async (key = merchant.sandboxKey) => answerOf(await gateway.request('GET', '/api/v1/integration/status', { key }), 200, 'status');
  const steps = (answer: any) => Object.fromEntries(answer.steps.map((step: any) => [step.id, step.done]));

  const fresh = await status();
  t.like(fresh, { merchantId: merchant.sandboxId, environment: 'SANDBOX', readyForLive: false });
  t.false(JSON.stringify(fresh).includes(merchant.liveId), 'the sandbox key learns nothing of the live account’s ids');
  t.deepEqual(steps(fresh), {
    API_KEY_USED: false,
    WEBHOOK_CONFIGURED: false,
    WEBHOOK_DELIVERING: false,
    TEST_ORDER_FULFILLED: false,
    WALLET_ON_FILE: false,
    PLAN_SELECTED: true,
    IP_ALLOWLIST_SET: false,
  });
  // The first request's use of the key is noted as it is answered.
  await receiver.until(async () => steps(await status()).API_KEY_USED === true, 5_000, 'the key use to be noted');

  answerOf(await gateway.request('POST', '/api/v1/webhooks', { key: merchant.sandboxKey, body: { url: receiver.url } }), 201, 'webhook');
  t.like(steps(await status(merchant.liveKey)), { WEBHOOK_CONFIGURED: true, WEBHOOK_DELIVERING: false });
  answerOf(await gateway.request('POST', '/api/v1/sandbox/test-order', { key: merchant.sandboxKey, body: {} }), 201, 'test order');
  await receiver.until(() => receiver.delivered().length === 4);
  await gateway.node.system.effectsIdle();
  t.like(steps(await status()), { TEST_ORDER_FULFILLED: true, WEBHOOK_DELIVERING: true });

  answerOf(
    await gateway.admin('PATCH', `/internal/v1/merchants/${merchant.liveId}`, { evmWalletAddress: '0x1111111111111111111111111111111111111111' }),
    200,
    'wallet',
  );
  const ready = await status(merchant.liveKey);
  t.true(ready.readyForLive, JSON.stringify(ready.steps));
  t.false(steps(ready).IP_ALLOWLIST_SET, 'recommended, not required');

  receiver.respond = () => 500;
  await gateway.clock.advance(1_000);
  answerOf(
    await gateway.request(
      'POST',
      `/api/v1/webhooks/${(await gateway.request('GET', '/api/v1/webhooks', { key: merchant.sandboxKey })).body.responseObject.webhooks[0].id}/test`,
      { key: merchant.sandboxKey },
    ),
    200,
    'test event',
  );
  const failing = await status();
  t.false(steps(failing).WEBHOOK_DELIVERING, 'the last delivery failed');
  t.false(failing.readyForLive);
});
