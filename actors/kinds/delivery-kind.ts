/**
 * The `delivery` actor kind: one event on its way to one endpoint. Its view is Peer's
 * `WebhookDelivery` plus what the delivery log reads show (every attempt, the body
 * sent) and the fields they filter on. Ids are derived from the event and the
 * endpoint, so the dispatcher making a delivery twice makes it once.
 */
import { createHash } from 'node:crypto';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  deliveryMachine,
  deliveryStatusOf,
  type AttemptRecord,
  type DeliveryContext,
  type DeliveryFailure,
  type DeliveryStatus,
} from '../../machines/webhook/index.js';
import { defineKind, type ReplyOf } from '../runtime/actor-kind.js';

export interface PublicDelivery {
  id: string;
  webhookId: string;
  eventType: string;
  eventId: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: string | null;
  nextRetryAt: string | null;
  responseCode: number | null;
  createdAt: string;
  failure: DeliveryFailure | null;
}

export type DeliveryView = {
  delivery: PublicDelivery;
  /** Every attempt kept, oldest first. */
  attemptHistory: AttemptRecord[];
  /** The exact body every attempt sends. */
  payload: string;
  webhookId: string;
  merchantId: string;
  subjectId: string;
  eventType: string;
  eventId: string;
  status: DeliveryStatus;
  createdAt: string;
  deliveredAt: string | null;
};

/** `whd_` and 24 letters and digits, from the event id and the endpoint id. */
export function deliveryIdOf(eventId: string, webhookId: string): string {
  return `whd_${createHash('sha256').update(`${eventId}\n${webhookId}`).digest('base64url').replace(/[-_]/g, '').slice(0, 24)}`;
}

export function deliveryView(context: DeliveryContext, state: string): DeliveryView {
  const status = deliveryStatusOf(state);
  const last = context.attempts.at(-1) ?? null;
  return {
    delivery: {
      id: context.id,
      webhookId: context.webhookId,
      eventType: context.eventType,
      eventId: context.eventId,
      status,
      attempts: context.attemptCount,
      lastAttemptAt: last?.at ?? null,
      nextRetryAt: context.nextRetryAt,
      responseCode: last?.responseCode ?? null,
      createdAt: context.createdAt,
      failure: status === 'FAILED' ? context.failure : null,
    },
    attemptHistory: context.attempts,
    payload: context.body,
    webhookId: context.webhookId,
    merchantId: context.merchantId,
    subjectId: context.subjectId,
    eventType: context.eventType,
    eventId: context.eventId,
    status,
    createdAt: context.createdAt,
    deliveredAt: context.deliveredAt,
  };
}

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as DeliveryContext;

/** What FOLLOWED_BY answers: whether the successor must wait for this delivery's first answer. */
function linkReply(context: DeliveryContext, event: EventObject & { successorId?: string }) {
  return { held: context.successorId === event.successorId && !context.successorReleased };
}

/** The delivery kind as callers address it; a node that delivers registers `withEffects(deliveryKind, deliveryEffects(…))`. */
export const deliveryKind = defineKind({
  name: 'delivery',
  machine: deliveryMachine,
  machineVersion: 2,
  // Version 2 adds the SUSPENDED state: documents of version 1 restore unchanged, and a node of version 1 refuses a document it could not restore.
  migrations: { 1: (persisted) => persisted },
  createdBy: ['CREATE'],
  view: (snapshot: AnyMachineSnapshot) => deliveryView(contextOf(snapshot), String(snapshot.value)),
  reply: (snapshot, event) =>
    event.type === 'FOLLOWED_BY' ? linkReply(contextOf(snapshot), event) : deliveryView(contextOf(snapshot), String(snapshot.value)).delivery,
  viewIndexes: [
    { key: { 'view.webhookId': 1, 'view.createdAt': -1 }, name: 'delivery_by_webhook_newest' },
    { key: { 'view.webhookId': 1, 'view.deliveredAt': -1 }, name: 'delivery_by_webhook_delivered' },
    { key: { 'view.merchantId': 1, 'view.createdAt': -1 }, name: 'delivery_by_merchant_newest' },
  ],
});

/** What a command of a delivery other than FOLLOWED_BY answers: the delivery as the API shows it. */
export function answeredDelivery(reply: ReplyOf<typeof deliveryKind>): PublicDelivery {
  if ('held' in reply) throw new TypeError('a delivery answered a command with its link to a successor');
  return reply;
}

/** What FOLLOWED_BY answers: whether the successor waits for this delivery's first answer. */
export function followedLink(reply: ReplyOf<typeof deliveryKind>): { held: boolean } {
  if (!('held' in reply)) throw new TypeError('a delivery answered FOLLOWED_BY with itself, not its link');
  return reply;
}
