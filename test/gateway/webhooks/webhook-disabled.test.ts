/**
 * Events raised while an endpoint is off (docs/webhooks.md, "While an endpoint is off"):
 * each is recorded as a SUSPENDED delivery that sends nothing, and once the endpoint is
 * back on, redeliver-failed sends them, the events of one order in the order they
 * happened. A deleted endpoint gets nothing.
 */
import test from 'ava';
import { deliveryKind } from '../../../actors/webhooks/index.js';
import { answerOf, placeOrder, startPayment } from '../../support/checkout.js';
import type { Answer } from '../../support/webhook-receiver.js';
import { webhookWorld, type WebhookWorld } from '../../support/webhooks.js';

const HOUR = 60 * 60_000;
const SINCE = { since: '2020-01-01T00:00:00Z' };

const endpoint = async (world: WebhookWorld) =>
  answerOf(await world.gateway.request('GET', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key }), 200, 'webhook');
const setActive = async (world: WebhookWorld, active: boolean) =>
  answerOf(await world.gateway.request('PATCH', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key, body: { active } }), 200, 'switch');
const redeliverFailed = async (world: WebhookWorld) =>
  answerOf(
    await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/redeliver-failed`, { key: world.key, body: SINCE }),
    202,
    'redeliver-failed',
  );
const orderIdOf = (event: { data: any }) => event.data.order.id as string;

/** An endpoint whose one delivery spent its schedule: disabled as FAILING. */
async function failingEndpoint(world: WebhookWorld): Promise<void> {
  world.receiver.respond = () => 500;
  await placeOrder(world.gateway, world.key);
  for (let hours = 0; hours < 100; hours++) await world.advance(HOUR);
  await world.gateway.node.system.effectsIdle();
  const off = await endpoint(world);
  if (off.active || off.disabledReason?.code !== 'FAILING') throw new Error(`the endpoint should be disabled as FAILING: ${JSON.stringify(off)}`);
}

test('an order created while the endpoint is disabled as FAILING is recorded, not sent, and redeliver-failed sends it once the endpoint is back on', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  await failingEndpoint(world);
  const sentWhileFailing = world.receiver.requests.length;

  const missed = await placeOrder(world.gateway, world.key);
  await world.gateway.node.system.effectsIdle();
  await world.advance(HOUR);
  t.is(world.receiver.requests.length, sentWhileFailing, 'nothing is sent to a disabled endpoint');
  const failed = await world.deliveries('&status=FAILED');
  t.is(failed.length, 2, 'the delivery that spent its schedule, and one for the missed event');
  const [suspended] = failed;
  t.like(suspended, { status: 'FAILED', attempts: 0, nextRetryAt: null, failure: { code: 'SUSPENDED' } }, 'the missed event has a delivery');

  await setActive(world, true);
  world.receiver.respond = () => 200;
  const batch = await redeliverFailed(world);
  t.is(batch.count, 2, 'the delivery that spent its schedule and the one suspended');
  t.true(batch.deliveryIds.includes(suspended.id));
  await world.receiver.until(() => world.receiver.delivered().length === 2);
  await world.gateway.node.system.effectsIdle();
  await world.advance(HOUR);
  t.deepEqual(
    world.receiver
      .delivered()
      .filter((event) => orderIdOf(event) === missed.id)
      .map((event) => event.type),
    ['ORDER_CREATED'],
    'the missed ORDER_CREATED arrives, once',
  );
  const detail = answerOf(
    await world.gateway.request('GET', `/api/v1/webhooks/${world.webhook.id}/deliveries/${suspended.id}`, { key: world.key }),
    200,
    'delivery',
  );
  t.like(detail, { status: 'DELIVERED', attempts: 1, failure: null });
  t.false(detail.attemptHistory[0].manual, 'a suspended delivery starts its schedule: its first attempt is not a one-off');
});

test('the events of one order missed while the endpoint was off go out in the order they happened', async (t) => {
  const world = await webhookWorld(t);
  await setActive(world, false);
  const order = await placeOrder(world.gateway, world.key);
  const payment = await startPayment(order);
  answerOf(await order.customer('POST', `/payments/${payment.id}/simulate`), 200, 'simulate');
  await world.gateway.node.system.effectsIdle();
  t.is(world.receiver.requests.length, 0);
  const suspended = await world.deliveries('&status=FAILED');
  t.is(suspended.length, 4);
  t.true(suspended.every((delivery: any) => delivery.failure.code === 'SUSPENDED' && delivery.attempts === 0));

  await setActive(world, true);
  // Each answer waits until the test gives it: the next event must not arrive before the one before it is answered.
  const answers: Array<(answer: Answer) => void> = [];
  world.receiver.respond = () => new Promise((resolve) => answers.push(resolve));
  t.is((await redeliverFailed(world)).count, 4);
  for (let index = 0; index < 4; index++) {
    await world.receiver.until(() => world.receiver.requests.length === index + 1, 10_000, `request ${index + 1}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    t.is(world.receiver.requests.length, index + 1, `nothing overtakes request ${index + 1} while it is unanswered`);
    answers[index]!(200);
  }
  await world.receiver.until(() => world.receiver.delivered().length === 4);
  t.deepEqual(
    world.receiver.delivered().map((event) => event.type),
    ['ORDER_CREATED', 'PAYMENT_CREATED', 'PAYMENT_SETTLED', 'ORDER_FULFILLED'],
  );
});

test('an endpoint switched off by hand: its events are recorded, switching it on sends none by itself, redeliver-failed does; a deleted one gets nothing', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  await setActive(world, false);
  const paused = await placeOrder(world.gateway, world.key);
  await world.gateway.node.system.effectsIdle();
  const [suspended] = await world.deliveries();
  t.like(suspended, { status: 'FAILED', attempts: 0, failure: { code: 'SUSPENDED' } });

  await setActive(world, true);
  await world.advance(HOUR);
  t.is(world.receiver.requests.length, 0, 'switching it on sends nothing by itself');
  const one = await world.gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/deliveries/${suspended.id}/redeliver`, { key: world.key });
  t.like(answerOf(one, 202, 'redeliver one'), { id: suspended.id, status: 'PENDING' });
  await world.receiver.until(() => world.receiver.delivered().length === 1);
  t.is(orderIdOf(world.receiver.delivered()[0]!), paused.id);

  answerOf(await world.gateway.request('DELETE', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key }), 200, 'delete');
  await placeOrder(world.gateway, world.key);
  await world.gateway.node.system.effectsIdle();
  // The deleted endpoint reads 404 over HTTP, log included: count its deliveries where they are kept.
  t.is(await world.gateway.node.system.views(deliveryKind).count({ 'view.webhookId': world.webhook.id }), 1, 'a deleted endpoint gets no delivery');
});
