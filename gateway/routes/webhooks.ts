/**
 * The merchant's webhook endpoints (API key): setup (document 1's POST /api/v1/webhooks
 * and the rest of Peer's shapes), the delivery log, redeliveries and the test event.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { reply } from '../envelope.js';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';
import { parseOrThrow } from '../validation.js';
import {
  createWebhookBody,
  deliveryPath,
  listDeliveriesQuery,
  redeliverFailedBody,
  testWebhookBody,
  updateWebhookBody,
  webhookPath,
} from '../schemas/webhook-schemas.js';
import {
  deletedWebhook,
  deliveryDetail,
  deliveryList,
  redeliveryBatch,
  testWebhookResponse,
  webhook,
  webhookDelivery,
  webhookList,
  webhookWithSecret,
} from '../schemas/webhook-resources.js';
import type { DeliveryLog } from '../webhooks/delivery-log.js';
import type { WebhookSetup } from '../webhooks/webhook-setup.js';

export interface WebhookRouteDependencies {
  setup: WebhookSetup;
  deliveries: DeliveryLog;
  auth: Middleware<GatewayState>;
  body: Middleware<GatewayState>;
}

export function webhookRoutes({ setup, deliveries, auth, body }: WebhookRouteDependencies): Router<GatewayState> {
  const router = exactRouter('/api/v1');

  router.post('/webhooks', auth, body, async (ctx) => {
    const input = parseOrThrow(createWebhookBody, ctx.request.body);
    reply(ctx, 201, 'Webhook created', webhookWithSecret, await setup.create(ctx.state.account, input));
  });

  router.get('/webhooks', auth, async (ctx) => {
    reply(ctx, 200, 'Webhooks', webhookList, await setup.list(ctx.state.account));
  });

  router.get('/webhooks/:webhookId', auth, async (ctx) => {
    const { webhookId } = parseOrThrow(webhookPath, ctx.params);
    reply(ctx, 200, 'Webhook', webhook, await setup.read(ctx.state.account, webhookId));
  });

  router.patch('/webhooks/:webhookId', auth, body, async (ctx) => {
    const { webhookId } = parseOrThrow(webhookPath, ctx.params);
    const input = parseOrThrow(updateWebhookBody, ctx.request.body);
    reply(ctx, 200, 'Webhook updated', webhook, await setup.update(ctx.state.account, webhookId, input));
  });

  router.delete('/webhooks/:webhookId', auth, async (ctx) => {
    const { webhookId } = parseOrThrow(webhookPath, ctx.params);
    reply(ctx, 200, 'Webhook deleted', deletedWebhook, await setup.remove(ctx.state.account, webhookId));
  });

  router.post('/webhooks/:webhookId/rotate-secret', auth, async (ctx) => {
    const { webhookId } = parseOrThrow(webhookPath, ctx.params);
    reply(ctx, 200, 'Secret rotated', webhookWithSecret, await setup.rotateSecret(ctx.state.account, webhookId));
  });

  router.post('/webhooks/:webhookId/test', auth, body, async (ctx) => {
    const { webhookId } = parseOrThrow(webhookPath, ctx.params);
    const { eventType } = parseOrThrow(testWebhookBody, ctx.request.body);
    reply(ctx, 200, 'Test event sent', testWebhookResponse, await deliveries.test(ctx.state.account, webhookId, eventType));
  });

  router.get('/webhooks/:webhookId/deliveries', auth, async (ctx) => {
    const { webhookId } = parseOrThrow(webhookPath, ctx.params);
    const query = parseOrThrow(listDeliveriesQuery, ctx.query);
    reply(ctx, 200, 'Deliveries', deliveryList, await deliveries.list(ctx.state.account, webhookId, query));
  });

  router.get('/webhooks/:webhookId/deliveries/:deliveryId', auth, async (ctx) => {
    const { webhookId, deliveryId } = parseOrThrow(deliveryPath, ctx.params);
    reply(ctx, 200, 'Delivery', deliveryDetail, await deliveries.read(ctx.state.account, webhookId, deliveryId));
  });

  router.post('/webhooks/:webhookId/deliveries/:deliveryId/redeliver', auth, async (ctx) => {
    const { webhookId, deliveryId } = parseOrThrow(deliveryPath, ctx.params);
    reply(ctx, 202, 'Redelivery started', webhookDelivery, await deliveries.redeliver(ctx.state.account, webhookId, deliveryId));
  });

  router.post('/webhooks/:webhookId/redeliver-failed', auth, body, async (ctx) => {
    const { webhookId } = parseOrThrow(webhookPath, ctx.params);
    const input = parseOrThrow(redeliverFailedBody, ctx.request.body);
    reply(ctx, 202, 'Redeliveries started', redeliveryBatch, await deliveries.redeliverFailed(ctx.state.account, webhookId, input));
  });

  return router;
}
