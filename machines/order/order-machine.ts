/**
 * The order: its status tracks how much of its value has settled (document 1, order
 * status table), not where the customer is in checkout. Pure: time arrives in events.
 *
 * A settlement is a fact on chain; the order can refuse to count it twice, or to
 * count it without an amount to count it against, but never refuse it for its
 * status. On a FULFILLED order (an overpayment, a late payment) and on a CANCELLED
 * order (a payment that settled after the cancel) it is recorded and lowers what
 * remains, so the order accounts for every unit that arrived; the status stays,
 * since both are final. Chargebacks and refunds (later issues) will be facts beside
 * the status too, never moving it off FULFILLED.
 */
import { assertEvent, assign, emit, setup } from 'xstate';
import { toCheckoutOrder, type CheckoutOrder } from './checkout-order.js';
import type { OrderContext, OrderEvent, OrderInput } from './order-types.js';
import { applySettlement, coversOrder, settlementRefusal } from './settlement.js';

export type OrderEmitted =
  | { type: 'ORDER_CREATED'; order: CheckoutOrder }
  | { type: 'ORDER_FULFILLED'; order: CheckoutOrder }
  | { type: 'ORDER_CANCELLED'; order: CheckoutOrder };

export const orderMachine = setup({
  types: {
    input: {} as OrderInput,
    context: {} as OrderContext,
    events: {} as OrderEvent,
    emitted: {} as OrderEmitted,
  },
  guards: {
    countsSettlement: ({ context, event }) => event.type === 'APPLY_SETTLEMENT' && settlementRefusal(context, event) === null,
    settlesInFull: ({ context, event }) =>
      event.type === 'APPLY_SETTLEMENT' && settlementRefusal(context, event) === null && coversOrder(context, event.usdcAmount),
  },
  actions: {
    recordSettlement: assign(({ context, event }) => {
      assertEvent(event, 'APPLY_SETTLEMENT');
      return applySettlement(context, { paymentId: event.paymentId, usdcAmount: event.usdcAmount, at: event.at });
    }),
    markCompleted: assign(({ event }) => {
      assertEvent(event, 'APPLY_SETTLEMENT');
      return { completedAt: event.at };
    }),
    markCancelled: assign(({ event }) => {
      assertEvent(event, 'CANCEL');
      return { cancelledAt: event.at, updatedAt: event.at };
    }),
    announceCreated: emit(({ context }) => ({ type: 'ORDER_CREATED' as const, order: toCheckoutOrder(context, 'CREATED') })),
    announceFulfilled: emit(({ context }) => ({ type: 'ORDER_FULFILLED' as const, order: toCheckoutOrder(context, 'FULFILLED') })),
    announceCancelled: emit(({ context }) => ({ type: 'ORDER_CANCELLED' as const, order: toCheckoutOrder(context, 'CANCELLED') })),
  },
}).createMachine({
  id: 'order',
  context: ({ input }) => {
    const { at, ...order } = input;
    return {
      ...order,
      remainingUsdcAmount: input.requestedUsdcAmount,
      amountVersion: 0,
      settlements: [],
      createdAt: at,
      updatedAt: at,
      cancelledAt: null,
      completedAt: null,
    };
  },
  entry: 'announceCreated',
  initial: 'CREATED',
  states: {
    CREATED: {
      on: {
        APPLY_SETTLEMENT: [
          { guard: 'settlesInFull', target: 'FULFILLED', actions: ['recordSettlement', 'markCompleted'] },
          { guard: 'countsSettlement', target: 'PARTIALLY_FULFILLED', actions: 'recordSettlement' },
        ],
        CANCEL: { target: 'CANCELLED', actions: 'markCancelled' },
      },
    },
    PARTIALLY_FULFILLED: {
      on: {
        APPLY_SETTLEMENT: [
          { guard: 'settlesInFull', target: 'FULFILLED', actions: ['recordSettlement', 'markCompleted'] },
          { guard: 'countsSettlement', actions: 'recordSettlement' },
        ],
        CANCEL: { target: 'CANCELLED', actions: 'markCancelled' },
      },
    },
    FULFILLED: {
      entry: 'announceFulfilled',
      on: { APPLY_SETTLEMENT: { guard: 'countsSettlement', actions: 'recordSettlement' } },
    },
    CANCELLED: {
      entry: 'announceCancelled',
      on: { APPLY_SETTLEMENT: { guard: 'countsSettlement', actions: 'recordSettlement' } },
    },
  },
});
