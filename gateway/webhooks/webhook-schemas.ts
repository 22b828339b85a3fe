/**
 * What the webhook endpoints take: Peer's `CreateWebhookRequest` and
 * `UpdateWebhookRequest`, the test, the delivery list's filters and the redelivery of
 * failed deliveries since a time. Event names and the URL are checked further by the
 * handler (gateway/webhooks/webhook-setup.ts): the first against the types and their v0
 * names, the second against where this environment may deliver.
 */
import { z } from 'zod';
import { SIGNATURE_HEADER_NAMES } from '../../actors/webhooks/signing.js';
import { pageQuery } from '../schemas/common.js';
import { deliveryId, deliveryStatus, webhookEventType, webhookId } from './webhook-resources.js';

/** document 1, Limits: custom webhook headers. */
export const MAX_CUSTOM_HEADERS = 10;

/** RFC 9110's token: what a header name may be. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Names we set on every request, or that belong to the connection rather than the
 * message; `webhook-` and `x-webhook-` are kept for signatures of later schemes.
 */
const RESERVED_NAMES = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'user-agent',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'upgrade',
  'expect',
  ...SIGNATURE_HEADER_NAMES,
]);
const RESERVED_PREFIXES = ['webhook-', 'x-webhook-', 'proxy-'];

const customHeader = z
  .strictObject({
    key: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .max(128, 'must be at most 128 characters')
      .regex(HEADER_NAME, "must be an HTTP header name: letters, digits and !#$%&'*+.^_`|~-")
      .transform((key) => key.toLowerCase())
      .refine((key) => !RESERVED_NAMES.has(key) && !RESERVED_PREFIXES.some((prefix) => key.startsWith(prefix)), {
        message: 'is a header the platform sets itself (content type and length, host, user agent, connection headers, webhook-* and x-webhook-* signatures)',
      })
      .meta({
        description:
          'An HTTP header name, kept lower case; not one the platform sets (content type and length, host, user agent, connection headers, webhook-* and x-webhook-*)',
      }),
    value: z
      .string()
      .max(1024, 'must be at most 1024 characters')
      .regex(/^[\t\x20-\x7e\x80-\xff]*$/, 'must be visible characters, spaces or tabs (no line breaks)')
      .transform((value) => value.trim())
      .meta({ description: 'The header’s value: at most 1024 visible characters, spaces or tabs, trimmed' }),
  })
  .meta({ id: 'WebhookHeaderInput' });

const customHeaders = z
  .array(customHeader)
  .max(MAX_CUSTOM_HEADERS, `must be at most ${MAX_CUSTOM_HEADERS} headers`)
  .refine((headers) => new Set(headers.map((header) => header.key)).size === headers.length, {
    message: 'must not name one header twice (names compare without letter case)',
  })
  .meta({ description: `Up to ${MAX_CUSTOM_HEADERS} headers sent with every delivery; names are lower-cased` });

const url = z
  .string()
  .min(1)
  .max(2048, 'must be at most 2048 characters')
  .meta({ description: 'https in live (http too in sandbox and outside production); never a loopback, private, link-local or metadata address' });

const events = z
  .array(z.string().min(1).max(64))
  .max(64)
  .meta({
    description: 'Event types (document 1), or the v0 dotted names that map to them; empty or absent: every type',
    example: ['ORDER_FULFILLED', 'PAYMENT_SETTLED'],
  });

export const createWebhookBody = z
  .strictObject({ url, events: events.optional(), customHeaders: customHeaders.optional() })
  .meta({ id: 'CreateWebhookRequest', example: { url: 'https://shop.example/webhooks/peer', events: ['ORDER_FULFILLED'] } });

export const updateWebhookBody = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    active: z.boolean().optional().meta({ description: 'false switches the webhook off; true switches it back on, whatever disabled it' }),
    customHeaders: customHeaders.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'must change at least one of url, events, active, customHeaders' })
  .meta({ id: 'UpdateWebhookRequest', example: { active: true } });

export const testWebhookBody = z
  .strictObject({ eventType: webhookEventType.default('ORDER_CREATED').meta({ description: 'The type the test event carries (ORDER_CREATED when absent)' }) })
  .meta({ id: 'TestWebhookRequest', example: { eventType: 'ORDER_FULFILLED' } });

export const webhookPath = z.strictObject({ webhookId });
export const deliveryPath = z.strictObject({ webhookId, deliveryId });

export const listDeliveriesQuery = z.strictObject({
  status: deliveryStatus.optional(),
  eventType: webhookEventType.optional(),
  eventId: z.string().min(1).max(128).optional().meta({ description: 'Only the deliveries of this event (its id, evt_…)' }),
  ...pageQuery,
});

export const redeliverFailedBody = z
  .strictObject({
    since: z.iso.datetime({ offset: true }).meta({ description: 'Failed deliveries made at or after this time' }),
    limit: z.number().int().min(1).max(1000).default(1000).meta({ description: 'At most this many in one call (1 to 1000)' }),
  })
  .meta({ id: 'RedeliverFailedRequest', example: { since: '2026-11-20T00:00:00Z' } });
