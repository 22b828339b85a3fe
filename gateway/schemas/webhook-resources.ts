/**
 * The resources the webhook endpoints answer, in the public shapes of Peer's shared
 * types (`Webhook`, `WebhookWithSecret`, `WebhookDelivery`, `TestWebhookResponse`, the
 * two lists), each with the fields we add: why an endpoint is disabled, why a delivery
 * failed, and a delivery's attempts and body.
 */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../machines/webhook/index.js';
import { isoTime, resourceId } from './common.js';

export const webhookId = resourceId('whk', 'a webhook');
export const deliveryId = resourceId('whd', 'a delivery');

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES as [string, ...string[]]).meta({ id: 'WebhookEventType' });
export const deliveryStatus = z.enum(['PENDING', 'DELIVERED', 'FAILED']).meta({ id: 'WebhookDeliveryStatus' });

export const webhookHeader = z.object({ key: z.string(), value: z.string() }).meta({ id: 'WebhookHeader' });

export const webhook = z
  .object({
    id: webhookId,
    merchantId: z.string(),
    url: z.string(),
    events: z.array(webhookEventType).meta({ description: 'The types it takes, v0 names mapped; empty: every type' }),
    active: z.boolean(),
    customHeaders: z.array(webhookHeader),
    createdAt: isoTime,
    updatedAt: isoTime,
    disabledReason: z
      .object({
        code: z.enum(['MERCHANT', 'GONE', 'FAILING']).meta({ description: 'MERCHANT: switched off with active false; GONE: the receiver answered 410; FAILING: no 2xx for the whole retry schedule' }),
        message: z.string(),
        at: isoTime,
      })
      .nullable()
      .meta({ description: 'Why the endpoint is off; null while it is active' }),
  })
  .meta({ id: 'Webhook' });

export const webhookWithSecret = webhook
  .extend({
    secret: z.string().meta({ description: 'The signing secret (whsec_…), shown here and on rotation only', example: 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX' }),
    previousSecretExpiresAt: isoTime.nullable().meta({ description: 'On rotation: until when the previous secret keeps signing beside this one' }),
  })
  .meta({ id: 'WebhookWithSecret' });

export const webhookList = z.object({ webhooks: z.array(webhook) }).meta({ id: 'ListWebhooksResponse' });

export const deletedWebhook = z.object({ id: webhookId, deleted: z.literal(true) }).meta({ id: 'DeletedWebhook' });

export const webhookDelivery = z
  .object({
    id: deliveryId,
    webhookId,
    eventType: webhookEventType,
    eventId: z.string().meta({ description: 'The id in the payload and the X-Webhook-Id header: the same for every delivery of one event' }),
    status: deliveryStatus,
    attempts: z.number().int().meta({ description: 'Attempts made, redeliveries included' }),
    lastAttemptAt: isoTime.nullable(),
    nextRetryAt: isoTime.nullable(),
    responseCode: z.number().int().nullable().meta({ description: 'The HTTP status of the last attempt; null when it got no answer' }),
    createdAt: isoTime,
    failure: z
      .object({ code: z.enum(['GONE', 'ENDPOINT_INACTIVE', 'SCHEDULE_SPENT', 'REDELIVERY_FAILED']), message: z.string() })
      .nullable()
      .meta({ description: 'Why a FAILED delivery ended; null otherwise' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const deliveryList = z
  .object({ deliveries: z.array(webhookDelivery), total: z.number().int(), page: z.number().int(), limit: z.number().int() })
  .meta({ id: 'ListWebhookDeliveriesResponse' });

export const deliveryAttempt = z
  .object({
    number: z.number().int(),
    at: isoTime,
    manual: z.boolean().meta({ description: 'A redelivery asked for, rather than the schedule' }),
    url: z.string().nullable(),
    requestHeaders: z.record(z.string(), z.string()).meta({ description: 'What was sent, signatures and custom headers included; never a secret' }),
    responseCode: z.number().int().nullable(),
    responseExcerpt: z.string().meta({ description: 'The first 1,024 bytes of the response body' }),
    durationMs: z.number().int(),
    error: z.string().nullable(),
    errorCode: z.enum(['TIMEOUT', 'DESTINATION_FORBIDDEN', 'CONNECTION_FAILED', 'INVALID_URL', 'TLS_ERROR', 'ENDPOINT_INACTIVE']).nullable(),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const deliveryDetail = webhookDelivery
  .extend({
    attemptHistory: z.array(deliveryAttempt).meta({ description: 'The last 25 attempts, oldest first' }),
    payload: z.string().meta({ description: 'The exact request body every attempt sends' }),
  })
  .meta({ id: 'WebhookDeliveryDetail' });

export const testWebhookResponse = z
  .object({
    success: z.boolean(),
    deliveryId,
    responseCode: z.number().int().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'TestWebhookResponse' });

export const redeliveryBatch = z
  .object({
    count: z.number().int().meta({ description: 'Failed deliveries sent again' }),
    deliveryIds: z.array(deliveryId),
    more: z.boolean().meta({ description: 'Whether more failed deliveries match; call again with the same since to send the next batch' }),
  })
  .meta({ id: 'RedeliveryBatch' });
