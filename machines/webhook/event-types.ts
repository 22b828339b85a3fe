/**
 * Document 1's webhook event types (WebhookEventType), the family each belongs to,
 * which of the three payload shapes carries it, and how the earlier (v0) dotted names
 * a subscription may still use map onto them (document 1, What emits what 6).
 */

export const EVENT_FAMILIES = {
  ORDER: ['ORDER_CREATED', 'ORDER_FULFILLED', 'ORDER_CANCELLED', 'ORDER_RESIZED', 'ORDER_AMOUNT_SET'],
  PAYMENT: ['PAYMENT_CREATED', 'PAYMENT_SETTLED', 'PAYMENT_CANCELLED', 'PAYMENT_EXPIRED', 'PAYMENT_FAILED'],
  REFUND: ['REFUND_PENDING', 'REFUND_COMPLETED'],
  BRIDGE: ['PAYMENT_BRIDGE_PENDING', 'PAYMENT_BRIDGE_SUBMITTED', 'PAYMENT_BRIDGE_COMPLETED', 'PAYMENT_BRIDGE_FAILED'],
  CHARGEBACK: ['PAYMENT_CHARGEBACKED', 'ORDER_PARTIALLY_CHARGEBACKED', 'ORDER_CHARGEBACKED'],
  DISPUTE: ['DISPUTE_OPENED', 'DISPUTE_PAID', 'DISPUTE_ESCALATED'],
  PAYOUT: [
    'PAYOUT_ORDER_CREATED',
    'PAYOUT_ORDER_CANCELLED',
    'PAYOUT_ORDER_PARTIALLY_FUNDED',
    'PAYOUT_ORDER_FUNDED',
    'PAYOUT_ORDER_MATCHED',
    'PAYOUT_ORDER_PARTIALLY_PAID',
    'PAYOUT_ORDER_SETTLED',
    'PAYOUT_ORDER_EXPIRED',
  ],
} as const;

export type EventFamily = keyof typeof EVENT_FAMILIES;
export type WebhookEventType = (typeof EVENT_FAMILIES)[EventFamily][number];

export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.values(EVENT_FAMILIES).flat();

const TYPES = new Set<string>(WEBHOOK_EVENT_TYPES);

export function isWebhookEventType(type: string): type is WebhookEventType {
  return TYPES.has(type);
}

/** The three payload shapes of document 1: payout and dispute types have their own, every other type the order payload. */
export type PayloadShape = 'order' | 'payout' | 'dispute';

export function payloadShapeOf(type: WebhookEventType): PayloadShape {
  if (type.startsWith('PAYOUT_ORDER_')) return 'payout';
  if (type.startsWith('DISPUTE_')) return 'dispute';
  return 'order';
}

/** The v0 names with an equivalent, and what each subscribes to. */
export const V0_EVENT_NAMES: Readonly<Record<string, readonly WebhookEventType[]>> = {
  'order.created': ['ORDER_CREATED'],
  'order.fulfilled': ['PAYMENT_SETTLED', 'ORDER_FULFILLED'],
  'order.failed': ['PAYMENT_FAILED'],
  'order.expired': ['PAYMENT_EXPIRED'],
  'session.completed': ['ORDER_FULFILLED'],
  'session.started': ['ORDER_CREATED'],
  'payout.submitted': ['PAYMENT_BRIDGE_SUBMITTED'],
  'payout.completed': ['PAYMENT_BRIDGE_COMPLETED'],
  'payout.failed': ['PAYMENT_BRIDGE_FAILED'],
};

export type SubscriptionParse = { ok: true; events: WebhookEventType[] } | { ok: false; unknown: string[] };

/**
 * The event types a subscription asks for, v0 names mapped, duplicates dropped, in
 * document 1's order; empty means every type. Names that are neither a type nor a v0
 * name with an equivalent (`order.payment_sent`, `session.abandoned`, typos) are
 * returned so the caller can name them.
 */
export function parseSubscription(names: readonly string[]): SubscriptionParse {
  const wanted = new Set<WebhookEventType>();
  const unknown: string[] = [];
  for (const name of names) {
    if (isWebhookEventType(name)) wanted.add(name);
    else if (Object.hasOwn(V0_EVENT_NAMES, name)) for (const type of V0_EVENT_NAMES[name]!) wanted.add(type);
    else unknown.push(name);
  }
  if (unknown.length > 0) return { ok: false, unknown };
  return { ok: true, events: WEBHOOK_EVENT_TYPES.filter((type) => wanted.has(type)) };
}

/** Whether an endpoint subscribed to `events` (empty: all) takes `type`. */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.length === 0 || events.includes(type);
}
