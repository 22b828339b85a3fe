/**
 * The body a merchant's endpoint receives for a domain event: one of document 1's three
 * shapes (order, payout version 2, dispute version 1), and the event id receivers
 * de-duplicate on.
 *
 * Event ids. An order event's id is `evt_<actor id>_<version>_<index>`: the actor that
 * emitted it, the version of the turn that did, and the event's place in that turn.
 * It is fixed by the turn, so a republished event and every delivery and redelivery of
 * it carry the same id, to every endpoint. Payout events use the same form; dispute
 * events use document 1's `dispute_<disputeId>_<type>`.
 */
import type { DomainEvent } from '../events/event-bus.js';
import { payloadShapeOf, type WebhookEventType } from '../../machines/webhook/index.js';

/** document 2: bumped only on a breaking change of the payout payload. */
export const PAYOUT_WEBHOOK_VERSION = 2;
export const DISPUTE_WEBHOOK_VERSION = 1;

/** The order as it reads when the event is dispatched, for payment events (which carry only the payment). */
export type OrderLookup = (orderId: string) => Promise<Record<string, unknown> | null>;

export function webhookEventId(event: Pick<DomainEvent, 'id' | 'type' | 'data'>): string {
  if (event.type.startsWith('DISPUTE_')) return `dispute_${String((event.data.dispute as { disputeId?: unknown } | undefined)?.disputeId)}_${event.type}`;
  const [, actorId, version, index] = event.id.split(':');
  return `evt_${actorId}_${version}_${index}`;
}

/** The order or payout the event is about: deliveries of one subject to one endpoint keep their order. */
export function subjectOf(event: DomainEvent): string {
  const shape = payloadShapeOf(event.type as WebhookEventType);
  if (shape === 'dispute') return String((event.data.dispute as { orderId?: unknown } | undefined)?.orderId ?? event.actor.id);
  if (typeof event.data.orderId === 'string') return event.data.orderId;
  return event.actor.id;
}

export async function webhookPayload(event: DomainEvent, orderOf: OrderLookup): Promise<Record<string, unknown>> {
  const type = event.type as WebhookEventType;
  const base = { id: webhookEventId(event), type, timestamp: new Date(event.at).toISOString() };
  switch (payloadShapeOf(type)) {
    case 'payout': {
      const { payout, partialPayment } = event.data;
      return { ...base, version: PAYOUT_WEBHOOK_VERSION, data: payout ?? null, ...(partialPayment !== undefined ? { partialPayment } : {}) };
    }
    case 'dispute':
      return { ...base, version: DISPUTE_WEBHOOK_VERSION, data: event.data.dispute ?? null };
    case 'order': {
      const { order, payment, refund, paymentBridge, trigger, resize, amountChange, orderId } = event.data;
      return {
        ...base,
        data: {
          order: order ?? (typeof orderId === 'string' ? await orderOf(orderId) : null),
          payment: payment ?? null,
          refund: refund ?? null,
          paymentBridge: paymentBridge ?? null,
          ...(trigger !== undefined ? { trigger } : {}),
          ...(resize !== undefined ? { resize } : {}),
          ...(amountChange !== undefined ? { amountChange } : {}),
        },
      };
    }
  }
}
