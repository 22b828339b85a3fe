/**
 * "Replace the older attempt" is decided once (replaceable, machines/order/order-payments.ts):
 * a create naming the open attempt it replaces (gateway/checkout/create-payment.ts) and the
 * order ending an older attempt a newer one reported past (the order machine) must agree on
 * every step an attempt can be in. The order is driven through its machine; the create is
 * called with a stand-in system that holds one open attempt, and stopped right after its checks.
 */
import test from 'ava';
import { initialTransition, transition } from 'xstate';
import { orderView } from '../../actors/kinds/order-kind.js';
import { ApiError } from '../../gateway/envelope.js';
import { createPayment, type CreatePaymentDependencies } from '../../gateway/checkout/create-payment.js';
import { orderMachine, type OrderContext, type OrderEvent, type OrderStatus, type PaymentSummary } from '../../machines/order/index.js';
import type { PaymentStep } from '../../machines/payment/payment-machine.js';
import { fixedOrderInput } from '../support/order-input.js';

const STEPS = [
  'SIGNALLING',
  'AWAITING_PAYMENT',
  'VERIFYING',
  'FULFILLING',
  'AWAITING_SETTLEMENT',
  'AWAITING_TRANSFER',
  'CONVERTING',
] as const satisfies readonly PaymentStep[];

const PAST_THE_CHECKS = new Error('past the checks: the create went on to price the new attempt');

function attempt(id: string, createdAt: string, step: PaymentStep): PaymentSummary {
  return { id, rail: 'venmo', status: 'CREATED', step, railIdentifier: null, paid: false, createdAt };
}

/** Whether the order, told of a newer open attempt, cancels the older one in `step`. */
function orderReplaces(step: PaymentStep): boolean {
  const updated = (payment: PaymentSummary): OrderEvent => ({ type: 'PAYMENT_UPDATED', payment });
  const [created] = initialTransition(orderMachine, fixedOrderInput());
  const [withOlder] = transition(orderMachine, created, updated(attempt('pay_old', '2026-11-23T12:01:00.000Z', step)));
  const [, actions] = transition(orderMachine, withOlder, updated(attempt('pay_new', '2026-11-23T12:02:00.000Z', 'SIGNALLING')));
  return actions.some((action) => action.type === 'tell' && (action.params as { to: { id: string } }).to.id === 'pay_old');
}

/** Whether a create naming the open attempt in `step` as the one it replaces goes on to replace it. */
async function createReplaces(step: PaymentStep): Promise<boolean> {
  const [created] = initialTransition(orderMachine, fixedOrderInput());
  const view = orderView(created.context as OrderContext, created.value as OrderStatus);
  const open = { _id: 'pay_old', view: { orderId: view.order.id, status: 'CREATED', step } };
  const deps = {
    system: { views: () => ({ findOne: async () => open }) },
    now: () => {
      throw PAST_THE_CHECKS;
    },
  } as unknown as CreatePaymentDependencies;
  try {
    await createPayment(deps, view, { rail: 'venmo', replacementPaymentId: 'pay_old' } as never, undefined);
  } catch (error) {
    if (error === PAST_THE_CHECKS) return true;
    if (error instanceof ApiError && error.errorCode === 'PAYMENT_NOT_CANCELLABLE') return false;
    throw error;
  }
  throw new Error('the create neither refused nor went on');
}

for (const step of STEPS) {
  test(`an open attempt in ${step}: the create and the order agree on whether a newer attempt replaces it`, async (t) => {
    t.is(await createReplaces(step), orderReplaces(step));
  });
}

test('the steps whose proof or transfer is in hand are the ones neither replaces', async (t) => {
  const kept = [];
  for (const step of STEPS) if (!(await createReplaces(step))) kept.push(step);
  t.deepEqual(kept, ['VERIFYING', 'FULFILLING', 'AWAITING_SETTLEMENT', 'CONVERTING']);
});
