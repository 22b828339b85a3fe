/**
 * The body of a webhook test event, in the shape a real event of its type is delivered
 * in (document 1: order, payout or dispute; narrow by type before reading data). An order
 * or payout test event carries no resource; a dispute test event carries a sample dispute
 * payload with every field, so a receiver's dispute parsing is exercised as a real one is.
 */
import { payloadShapeOf, type WebhookEventType } from '../../machines/webhook/index.js';
import { DISPUTE_WEBHOOK_VERSION, PAYOUT_WEBHOOK_VERSION } from '../../actors/webhooks/payloads.js';
import type { DisputePayload } from '../../machines/dispute/index.js';

const DISPUTE_STATUS = { DISPUTE_OPENED: 'OPEN', DISPUTE_PAID: 'PAID', DISPUTE_ESCALATED: 'ESCALATED' } as const;

/** `token`: 24 hex digits naming this test event. The answer's id is the event id its delivery is made under. */
export function testEventBody(eventType: string, token: string, at: string): { eventId: string; body: Record<string, unknown> } {
  const shape = payloadShapeOf(eventType as WebhookEventType);
  if (shape === 'dispute') {
    const disputeId = `test_${token}`;
    const status = DISPUTE_STATUS[eventType as keyof typeof DISPUTE_STATUS];
    const data: DisputePayload = {
      disputeId,
      orderId: 'ord_test000000000000000000000',
      paymentId: 'pay_test000000000000000000000',
      intentHash: `0x${'0'.repeat(64)}`,
      amountUsdc: '12500000',
      caseAmount: '12.50',
      caseCurrency: 'USD',
      sellerAddress: '0x0000000000000000000000000000000000000000',
      status,
      dueAt: at,
      paidTxHash: status === 'PAID' ? `0x${'0'.repeat(64)}` : null,
    };
    const eventId = `dispute_${disputeId}_${eventType}`;
    return { eventId, body: { id: eventId, type: eventType, timestamp: at, version: DISPUTE_WEBHOOK_VERSION, data } };
  }
  const eventId = `evt_test_${token}`;
  if (shape === 'payout') return { eventId, body: { id: eventId, type: eventType, timestamp: at, version: PAYOUT_WEBHOOK_VERSION, data: null } };
  return { eventId, body: { id: eventId, type: eventType, timestamp: at, data: { order: null, payment: null, refund: null, paymentBridge: null } } };
}
