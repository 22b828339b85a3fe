/**
 * What a node's metrics say of its webhooks: every attempt counted by outcome, and the
 * merchants whose webhooks are failing counted (never named) while a delivery retries
 * and once the endpoint is switched off for failing.
 */
import test from 'ava';
import type { PrometheusMetrics } from '../../../actors/metrics/index.js';
import { merchantsFailingWebhooks } from '../../../actors/webhooks/index.js';
import { answerOf, placeOrder } from '../../support/checkout.js';
import { parseExposition, sampleValue } from '../../support/prometheus-text.js';
import { webhookWorld } from '../../support/webhooks.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

test('a failing endpoint: attempts counted as http_error, its merchant counted as retrying, then as disabled', async (t) => {
  const world = await webhookWorld(t, { body: { events: ['ORDER_CREATED'] } });
  const { system } = world.gateway.node;
  const scrape = async () => parseExposition(await (system.metrics as PrometheusMetrics).metrics());
  t.deepEqual(await merchantsFailingWebhooks(system), { endpoint_disabled: 0, deliveries_retrying: 0 });

  world.receiver.respond = () => 500;
  await placeOrder(world.gateway, world.key);
  await system.effectsIdle();
  for (let minutes = 0; minutes < 10; minutes++) await world.advance(MINUTE);
  await system.effectsIdle();
  const [delivery] = await world.deliveries();
  t.like(delivery, { status: 'PENDING', attempts: 3 }, 'three attempts failed, the fourth waits');
  t.deepEqual(await merchantsFailingWebhooks(system), { endpoint_disabled: 0, deliveries_retrying: 1 });
  const retrying = await scrape();
  t.is(sampleValue(retrying, 'peer_webhook_attempts_total', { outcome: 'http_error' }), 3);
  t.is(sampleValue(retrying, 'peer_webhook_attempts_total', { outcome: 'ok' }), 0);
  t.is(sampleValue(retrying, 'peer_webhook_attempt_duration_seconds_count'), 3);
  t.is(sampleValue(retrying, 'peer_webhook_merchants_failing', { reason: 'deliveries_retrying' }), 1, 'the node reads it at scrape time');
  t.false(
    [...retrying.values()].some((family) =>
      family.samples.some((sample) => Object.values(sample.labels).some((value) => value === world.merchant.liveId || value === world.merchant.sandboxId)),
    ),
    'no merchant id is a label',
  );

  for (let hours = 0; hours < 100; hours++) await world.advance(HOUR);
  await system.effectsIdle();
  const off = answerOf(await world.gateway.request('GET', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key }), 200, 'webhook');
  t.like(off, { active: false, disabledReason: { code: 'FAILING' } });
  t.deepEqual(await merchantsFailingWebhooks(system), { endpoint_disabled: 1, deliveries_retrying: 0 });

  world.receiver.respond = () => 200;
  answerOf(await world.gateway.request('PATCH', `/api/v1/webhooks/${world.webhook.id}`, { key: world.key, body: { active: true } }), 200, 'switch on');
  t.deepEqual(await merchantsFailingWebhooks(system), { endpoint_disabled: 0, deliveries_retrying: 0 }, 'an endpoint back on is no longer counted');
});
