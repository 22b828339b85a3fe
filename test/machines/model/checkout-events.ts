/**
 * The webhook event types document 1 names ("Events", WebhookEventType), order and payment
 * families and the rest: a domain event outside this list is the machine's own business,
 * and the document's tables say nothing of it.
 */
export const CHECKOUT_EVENTS: readonly string[] = [
  'ORDER_CREATED',
  'ORDER_FULFILLED',
  'ORDER_CANCELLED',
  'ORDER_RESIZED',
  'ORDER_AMOUNT_SET',
  'PAYMENT_CREATED',
  'PAYMENT_SETTLED',
  'PAYMENT_CANCELLED',
  'PAYMENT_EXPIRED',
  'PAYMENT_FAILED',
  'REFUND_PENDING',
  'REFUND_COMPLETED',
  'PAYMENT_BRIDGE_PENDING',
  'PAYMENT_BRIDGE_SUBMITTED',
  'PAYMENT_BRIDGE_COMPLETED',
  'PAYMENT_BRIDGE_FAILED',
  'PAYMENT_CHARGEBACKED',
  'ORDER_PARTIALLY_CHARGEBACKED',
  'ORDER_CHARGEBACKED',
];
