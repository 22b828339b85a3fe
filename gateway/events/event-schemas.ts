/**
 * What the event endpoints take and answer: the list's and the stream's queries, the
 * stream's Last-Event-ID, and the event itself, which is the webhook body
 * (docs/webhooks.md, Events and payloads) exactly as the endpoints are sent it.
 */
import { z } from 'zod';
import { isoTime, orderId, pageQuery, totalCapped } from '../schemas/common.js';
import { paymentId } from '../payments/payment-schemas.js';
import { webhookEventType } from '../webhooks/webhook-resources.js';

/** As many as there are types is more than anyone needs; the bound keeps a query small. */
const MAX_TYPES = 40;
/** Event ids are `evt_<actor id>_<version>_<index>` or `dispute_<id>_<type>`; far below this. */
const MAX_EVENT_ID = 256;

const types = z
  .array(webhookEventType)
  .min(1)
  .max(MAX_TYPES)
  .meta({ description: 'Only events of these types: repeat the parameter for more than one (`type=ORDER_CREATED&type=ORDER_FULFILLED`)' });

export const listEventsQuery = z.strictObject({
  type: types.optional(),
  orderId: orderId.optional().meta({ description: 'Only the events about this order: its own and its payments’' }),
  paymentId: paymentId.optional().meta({ description: 'Only the events about this payment' }),
  ...pageQuery,
});

export const streamEventsQuery = z.strictObject({ type: types.optional() });

export const eventId = z
  .string()
  .min(1)
  .max(MAX_EVENT_ID)
  .regex(/^[\x21-\x7e]+$/, 'must be an event id (visible ASCII, no spaces)');

export const streamEventsHeaders = z.object({
  'last-event-id': eventId.optional().meta({
    description:
      'Resume after this event: every event of the account recorded since is sent first, then new ones. An EventSource client sends it on reconnecting by itself. Absent, the stream starts with the next event.',
  }),
});

export const merchantEvent = z
  .looseObject({
    id: z
      .string()
      .meta({ description: 'The event id, the same as the webhook’s (X-Webhook-Id): de-duplicate on it', example: 'evt_ord_4Fz1hQk9TbW2mX7pLr0sVc3N_1_0' }),
    type: webhookEventType,
    timestamp: isoTime.meta({ description: 'When the event happened' }),
    version: z.number().int().optional().meta({ description: 'Payout events 2, dispute events 1; absent on order and payment events' }),
    data: z.record(z.string(), z.unknown()).nullable().meta({
      description:
        'As the webhook carries it: for order and payment types `{ order, payment, refund, paymentBridge }` (and `amountChange` on ORDER_AMOUNT_SET, `resize` on ORDER_RESIZED, `trigger` on the chargeback types: `{ type: CHARGEBACK_APPLIED, chargeback }` with a PaymentChargebackFact or `{ type: PAYMENT_SETTLED, paymentId }`, docs/chargebacks.md), the order as in the order list and the payment as in the payment list; for payout types the payout, for dispute types the dispute',
    }),
  })
  .meta({ id: 'MerchantEvent', description: 'An event, in the body its webhook is sent (docs/webhooks.md)' });

export const merchantEventList = z
  .object({
    events: z.array(merchantEvent).meta({ description: 'This page of the events, newest first' }),
    total: z.number().int().meta({ description: 'How many events match the filters, over every page; at most 10,000 (see totalCapped)' }),
    totalCapped: totalCapped('events'),
    page: z.number().int().meta({ description: 'The page answered, from 1' }),
    limit: z.number().int().meta({ description: 'Events per page, as asked (1 to 100)' }),
  })
  .meta({ id: 'MerchantEventList', description: 'A page of the merchant’s events of the last 30 days' });

export type ListEventsQuery = z.infer<typeof listEventsQuery>;
