/**
 * The resources the webhook endpoints answer, in the public shapes of Peer's shared
 * types (`Webhook`, `WebhookWithSecret`, `WebhookDelivery`, `TestWebhookResponse`, the
 * two lists), each with the fields we add: why an endpoint is disabled, why a delivery
 * failed, and a delivery's attempts and body.
 */
import { z } from 'zod';
import { WEBHOOK_EVENT_TYPES } from '../../machines/webhook/index.js';
import { isoTime, pageFields, resourceId } from '../schemas/common.js';

export const webhookId = resourceId('whk', 'a webhook');
export const deliveryId = resourceId('whd', 'a delivery');

export const webhookEventType = z
  .enum(WEBHOOK_EVENT_TYPES as [string, ...string[]])
  .meta({ id: 'WebhookEventType', description: 'A webhook event type (document 1, Events)' });
export const deliveryStatus = z.enum(['PENDING', 'DELIVERED', 'FAILED']).meta({
  id: 'WebhookDeliveryStatus',
  description: 'PENDING (an attempt is under way or a retry is due), DELIVERED (the endpoint answered 2xx) or FAILED (it ended without one)',
});

export const webhookHeader = z
  .object({
    key: z.string().meta({ description: 'The header’s name, lower case' }),
    value: z.string().meta({ description: 'The header’s value' }),
  })
  .meta({ id: 'WebhookHeader', description: 'A header sent with every delivery' });

export const webhook = z
  .object({
    id: webhookId,
    merchantId: z.string().meta({ description: 'The merchant account (mer_…) whose events it receives: a live key’s or a sandbox key’s' }),
    url: z.string().meta({ description: 'Where the events are sent' }),
    events: z.array(webhookEventType).meta({ description: 'The types it takes, v0 names mapped; empty: every type' }),
    active: z.boolean().meta({ description: 'Events are sent to it; false once disabled (disabledReason says why)' }),
    customHeaders: z.array(webhookHeader).meta({ description: 'Headers of the merchant’s sent with every delivery' }),
    createdAt: isoTime,
    updatedAt: isoTime,
    disabledReason: z
      .object({
        code: z
          .enum(['MERCHANT', 'GONE', 'FAILING'])
          .meta({ description: 'MERCHANT: switched off with active false; GONE: the receiver answered 410; FAILING: no 2xx for the whole retry schedule' }),
        message: z.string().meta({ description: 'The reason in words' }),
        at: isoTime,
      })
      .nullable()
      .meta({ description: 'Why the endpoint is off; null while it is active' }),
  })
  .meta({ id: 'Webhook', description: 'An endpoint the merchant’s events are sent to, signed' });

export const webhookWithSecret = webhook
  .extend({
    secret: z
      .string()
      .meta({ description: 'The signing secret (whsec_…), shown here and on rotation only', example: 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYX' }),
    previousSecretExpiresAt: isoTime.nullable().meta({ description: 'On rotation: until when the previous secret keeps signing beside this one' }),
  })
  .meta({ id: 'WebhookWithSecret' });

export const webhookList = z
  .object({ webhooks: z.array(webhook).meta({ description: 'Every webhook not deleted, oldest first' }) })
  .meta({ id: 'ListWebhooksResponse' });

export const deletedWebhook = z
  .object({ id: webhookId, deleted: z.literal(true).meta({ description: 'Always true: the webhook is deleted' }) })
  .meta({ id: 'DeletedWebhook' });

export const webhookDelivery = z
  .object({
    id: deliveryId,
    webhookId,
    eventType: webhookEventType,
    eventId: z.string().meta({ description: 'The id in the payload and the X-Webhook-Id header: the same for every delivery of one event' }),
    status: deliveryStatus,
    attempts: z.number().int().meta({ description: 'Attempts made, redeliveries included' }),
    lastAttemptAt: isoTime.nullable().meta({ description: 'When the last attempt was made; null before the first' }),
    nextRetryAt: isoTime.nullable().meta({ description: 'When the next scheduled attempt is due; null once DELIVERED or FAILED' }),
    responseCode: z.number().int().nullable().meta({ description: 'The HTTP status of the last attempt; null when it got no answer' }),
    createdAt: isoTime,
    failure: z
      .object({
        code: z.enum(['GONE', 'ENDPOINT_INACTIVE', 'SCHEDULE_SPENT', 'REDELIVERY_FAILED', 'SUSPENDED']).meta({
          description:
            'GONE: the endpoint answered 410; ENDPOINT_INACTIVE: the webhook was disabled or deleted when an attempt came; SCHEDULE_SPENT: twelve attempts over three days without a 2xx; REDELIVERY_FAILED: a redelivery’s one attempt failed; SUSPENDED: nothing sent, the webhook was disabled when the event came (a redelivery or redeliver-failed, once it is back on, starts it on its schedule)',
        }),
        message: z.string().meta({ description: 'The reason in words' }),
      })
      .nullable()
      .meta({ description: 'Why a FAILED delivery ended; null otherwise' }),
  })
  .meta({ id: 'WebhookDelivery', description: 'One event sent to one webhook, with all its attempts' });

export const deliveryList = z
  .object({ deliveries: z.array(webhookDelivery).meta({ description: 'This page of deliveries, newest first' }), ...pageFields('deliveries') })
  .meta({ id: 'ListWebhookDeliveriesResponse' });

export const deliveryAttempt = z
  .object({
    number: z.number().int().meta({ description: 'The attempt’s number, from 1' }),
    at: isoTime,
    manual: z.boolean().meta({ description: 'A redelivery asked for, rather than the schedule' }),
    url: z.string().nullable().meta({ description: 'Where it was sent; null when the webhook had no usable address' }),
    requestHeaders: z.record(z.string(), z.string()).meta({ description: 'What was sent, signatures and custom headers included; never a secret' }),
    responseCode: z.number().int().nullable().meta({ description: 'The HTTP status the endpoint answered; null when it did not answer' }),
    responseExcerpt: z.string().meta({ description: 'The first 1,024 bytes of the response body' }),
    durationMs: z.number().int().meta({ description: 'How long the attempt took, in milliseconds' }),
    error: z.string().nullable().meta({ description: 'Why no answer came, in words; null when the endpoint answered' }),
    errorCode: z
      .enum(['TIMEOUT', 'DESTINATION_FORBIDDEN', 'CONNECTION_FAILED', 'INVALID_URL', 'TLS_ERROR', 'ENDPOINT_INACTIVE'])
      .nullable()
      .meta({ description: 'Why no answer came; null when the endpoint answered' }),
  })
  .meta({ id: 'WebhookDeliveryAttempt', description: 'One attempt of a delivery' });

export const deliveryDetail = webhookDelivery
  .extend({
    attemptHistory: z.array(deliveryAttempt).meta({ description: 'The last 25 attempts, oldest first' }),
    payload: z.string().meta({ description: 'The exact request body every attempt sends' }),
  })
  .meta({ id: 'WebhookDeliveryDetail' });

export const testWebhookResponse = z
  .object({
    success: z.boolean().meta({ description: 'The endpoint answered 2xx' }),
    deliveryId,
    responseCode: z.number().int().nullable().meta({ description: 'The HTTP status the endpoint answered; null when it did not answer' }),
    error: z.string().nullable().meta({ description: 'Why no answer came, in words; null when the endpoint answered' }),
  })
  .meta({ id: 'TestWebhookResponse' });

export const redeliveryBatch = z
  .object({
    count: z.number().int().meta({ description: 'Failed deliveries sent again' }),
    deliveryIds: z.array(deliveryId).meta({ description: 'The deliveries sent again, oldest first' }),
    more: z.boolean().meta({ description: 'Whether more failed deliveries match; call again with the same since to send the next batch' }),
  })
  .meta({ id: 'RedeliveryBatch' });
