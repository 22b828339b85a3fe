import test from 'ava';
import { EVENT_FAMILIES, WEBHOOK_EVENT_TYPES, parseSubscription, payloadShapeOf } from '../../../machines/webhook/index.js';

test('document 1’s event types, family by family', (t) => {
  t.deepEqual(EVENT_FAMILIES, {
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
  });
});

test('three payload shapes: payout and dispute types have their own, every other type the order payload', (t) => {
  for (const type of WEBHOOK_EVENT_TYPES) {
    const expected = type.startsWith('PAYOUT_ORDER_') ? 'payout' : type.startsWith('DISPUTE_') ? 'dispute' : 'order';
    t.is(payloadShapeOf(type), expected, type);
  }
});

test('every v0 name of document 1 maps to what it lists; the two without an equivalent are refused by name', (t) => {
  const mapping: Array<[string, string[]]> = [
    ['order.created', ['ORDER_CREATED']],
    ['order.fulfilled', ['ORDER_FULFILLED', 'PAYMENT_SETTLED']],
    ['order.failed', ['PAYMENT_FAILED']],
    ['order.expired', ['PAYMENT_EXPIRED']],
    ['session.completed', ['ORDER_FULFILLED']],
    ['session.started', ['ORDER_CREATED']],
    ['payout.submitted', ['PAYMENT_BRIDGE_SUBMITTED']],
    ['payout.completed', ['PAYMENT_BRIDGE_COMPLETED']],
    ['payout.failed', ['PAYMENT_BRIDGE_FAILED']],
  ];
  for (const [name, types] of mapping) {
    const parsed = parseSubscription([name]);
    t.true(parsed.ok, name);
    if (parsed.ok) t.deepEqual([...parsed.events].sort(), [...types].sort(), name);
  }
  t.deepEqual(parseSubscription(['order.payment_sent', 'ORDER_CREATED', 'session.abandoned']), {
    ok: false,
    unknown: ['order.payment_sent', 'session.abandoned'],
  });
  t.deepEqual(parseSubscription([]), { ok: true, events: [] }, 'empty: every type');
});
