/**
 * document 1, Events: the three payload shapes as the endpoint receives them. Order webhooks carry
 * no version (Versioning 2), dispute webhooks version 1; data.resize only on ORDER_RESIZED, data.trigger
 * only on the chargeback types, data.paymentBridge on the bridge types and null elsewhere.
 */
import test from 'ava';
import type { DomainEvent } from '../../../actors/events/event-bus.js';
import { webhookPayload } from '../../../actors/webhooks/payloads.js';

const AT = Date.parse('2026-12-06T12:00:00.000Z');
const ORDER = { id: 'ord_1', status: 'CREATED' };
const noLookup = async () => {
  throw new Error('the event carries its order');
};
const event = (type: string, actor: string, data: Record<string, unknown>): DomainEvent => ({
  id: `${actor.split('_')[0]}:${actor}:3:0`,
  type,
  actor: { kind: actor.split('_')[0]!, id: actor },
  at: AT,
  data,
});

test('ORDER_RESIZED carries data.resize and no version; other order events carry no resize key', async (t) => {
  const resize = { previousAmountUsdc: '20', newAmountUsdc: '35.5' };
  const resized = await webhookPayload(event('ORDER_RESIZED', 'ord_1', { order: ORDER, resize }), noLookup);
  t.deepEqual(resized, {
    id: 'evt_ord_1_3_0',
    type: 'ORDER_RESIZED',
    timestamp: '2026-12-06T12:00:00.000Z',
    data: { order: ORDER, payment: null, refund: null, paymentBridge: null, resize },
  });
  const created = await webhookPayload(event('ORDER_CREATED', 'ord_1', { order: ORDER }), noLookup);
  t.false('version' in created);
  t.deepEqual(Object.keys(created.data as object), ['order', 'payment', 'refund', 'paymentBridge']);
});

test('a bridge event carries data.paymentBridge and the order it names, looked up when the event does not carry it', async (t) => {
  const paymentBridge = { id: 'brg_pay_1', paymentId: 'pay_1', status: 'COMPLETED' };
  const completed = await webhookPayload(event('PAYMENT_BRIDGE_COMPLETED', 'brg_pay_1', { orderId: 'ord_1', paymentId: 'pay_1', paymentBridge }), async (id) =>
    id === 'ord_1' ? ORDER : null,
  );
  t.false('version' in completed);
  t.deepEqual(completed.data, { order: ORDER, payment: null, refund: null, paymentBridge });
});

test('chargeback events carry data.trigger and no version; dispute events are version 1 with the dispute as data', async (t) => {
  const trigger = { type: 'PAYMENT_SETTLED', paymentId: 'pay_2' };
  const chargebacked = await webhookPayload(event('ORDER_PARTIALLY_CHARGEBACKED', 'ord_1', { order: ORDER, trigger }), noLookup);
  t.false('version' in chargebacked);
  t.deepEqual((chargebacked.data as { trigger: unknown }).trigger, trigger);
  const dispute = { disputeId: 'VD-1', orderId: 'ord_1', amountUsdc: '12500000', caseAmount: '12.50', status: 'OPEN' };
  const opened = await webhookPayload(event('DISPUTE_OPENED', 'dsp_1', { dispute, merchantId: 'mer_1' }), noLookup);
  t.deepEqual(opened, { id: 'dispute_VD-1_DISPUTE_OPENED', type: 'DISPUTE_OPENED', timestamp: '2026-12-06T12:00:00.000Z', version: 1, data: dispute });
});
