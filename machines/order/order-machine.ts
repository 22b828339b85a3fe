/**
 * The order: its status tracks how much of its value has settled (document 1, order
 * status table), not where the customer is in checkout. Pure: time arrives in events.
 *
 * A settlement is a fact on chain; the order can refuse to count it twice, or to
 * count it without an amount to count it against, but never refuse it for its
 * status. On a FULFILLED order (an overpayment, a late payment) and on a CANCELLED
 * order (a payment that settled after the cancel) it is recorded and lowers what
 * remains, so the order accounts for every unit that arrived; the status stays,
 * since both are final. Chargebacks (docs/chargebacks.md, order-chargebacks.ts) and refunds
 * are facts beside the status, never moving it off FULFILLED (document 1). So are the
 * bridges of its payments (order-bridges.ts), each told by its bridge in every status.
 *
 * A refund (docs/refunds.md, refunds.ts) is asked for on a FULFILLED order: the order
 * reserves its amount and tells the refund's payout to be created, in the one write, so
 * the payout is made at least once. The payout tells the order how it goes (created,
 * not created, funded, expired, cancelled unfunded); each news moves the refund on once
 * and a repeat of it changes nothing, so news told twice counts once. News may reach an
 * order a reorganisation moved off FULFILLED, so every status takes it.
 *
 * A settlement a chain reorganisation removed is another matter: it never happened on
 * the chain that stands, so RETRACT_SETTLEMENT takes it back and the status follows
 * what remains settled (FULFILLED → PARTIALLY_FULFILLED or CREATED, PARTIALLY_FULFILLED
 * → CREATED; CANCELLED stays). Taking back what the order does not hold changes nothing,
 * so a retraction told twice counts once. The payment re-applies its settlement if its
 * fulfilment is mined again, and the order counts it as any other.
 */
import { assertEvent, assign, emit, enqueueActions, setup } from 'xstate';
import { formatUsdc } from '../money.js';
import { toCheckoutOrder, type CheckoutOrder } from './checkout-order.js';
import type { OrderContext, OrderEvent, OrderInput } from './order-types.js';
import { applySettlement, coveredAt, coveredWithout, coversOrder, holdsSettlement, settlementRefusal, withoutSettlement } from './settlement.js';
import { supersededBy, withPayment } from './order-payments.js';
import { amountLock } from './hosted-fields.js';
import { staleAmount } from './amount-conflict.js';
import { endedByResize, resizeCovers, resized, resizeOf, resizeRefusal } from './resize.js';
import type { FiatAmount, OrderRefund, OrderStatus } from './order-types.js';
import { refundOf, refundView, reservesAnew, withRefund, type OrderRefundView } from './refunds.js';
import { withBridge } from './order-bridges.js';
import { chargebackEventOf, chargebackFactOf, chargebackOf, orderChargebackStatus, type ChargebackTrigger } from './order-chargebacks.js';

export type OrderEmitted =
  | { type: 'ORDER_CREATED'; order: CheckoutOrder }
  | { type: 'ORDER_FULFILLED'; order: CheckoutOrder }
  | { type: 'ORDER_CANCELLED'; order: CheckoutOrder }
  | {
      type: 'ORDER_AMOUNT_SET';
      order: CheckoutOrder;
      amountChange: { previousAmountUsdc: string | null; newAmountUsdc: string; fiat: FiatAmount; amountVersion: number };
    }
  | { type: 'REFUND_PENDING' | 'REFUND_COMPLETED'; order: CheckoutOrder; refund: OrderRefundView }
  | { type: 'ORDER_PARTIALLY_CHARGEBACKED' | 'ORDER_CHARGEBACKED'; order: CheckoutOrder; trigger: ChargebackTrigger }
  | { type: 'ORDER_RESIZED'; order: CheckoutOrder; resize: { previousAmountUsdc: string; newAmountUsdc: string } };

/** The refund a refund event names. */
const named = (event: OrderEvent): string | null => ('payoutId' in event && typeof event.payoutId === 'string' ? event.payoutId : null);

/** The refund a news names, changed by `change`, and the order's updatedAt moved to the news' time (never back). */
function refundChanged(context: OrderContext, event: OrderEvent, change: (refund: OrderRefund, at: string) => OrderRefund) {
  const at = 'at' in event && typeof event.at === 'string' ? event.at : context.updatedAt;
  return {
    refunds: withRefund(context.refunds, named(event)!, (refund) => change(refund, at)),
    updatedAt: at > context.updatedAt ? at : context.updatedAt,
  };
}

const refundIn = (context: OrderContext, event: OrderEvent, states: readonly OrderRefund['state'][]) => {
  const payoutId = named(event);
  const refund = payoutId === null ? undefined : refundOf(context, payoutId);
  return refund !== undefined && states.includes(refund.state);
};

const announceRefund = (type: 'REFUND_PENDING' | 'REFUND_COMPLETED', status: OrderStatus) => ({ type: 'announceRefund' as const, params: { type, status } });

/**
 * What a refund's payout tells the order, in `status`: each news moves the refund on from
 * the states it can come from, and is otherwise a repeat, taken and changing nothing (the
 * order kind refuses news of a refund the order never held).
 */
function refundNews(status: OrderStatus) {
  return {
    REFUND_PAYOUT_CREATED: [
      { guard: 'refundReserved' as const, actions: ['openRefund' as const, announceRefund('REFUND_PENDING', status)] },
      { actions: 'acknowledge' as const },
    ],
    REFUND_PAYOUT_NOT_CREATED: [{ guard: 'refundReserved' as const, actions: 'releaseRefund' as const }, { actions: 'acknowledge' as const }],
    REFUND_PAYOUT_FUNDED: [
      { guard: 'refundOpen' as const, actions: ['completeRefund' as const, announceRefund('REFUND_COMPLETED', status)] },
      { actions: 'acknowledge' as const },
    ],
    REFUND_PAYOUT_EXPIRED: [{ guard: 'refundOpen' as const, actions: 'endRefund' as const }, { actions: 'acknowledge' as const }],
    REFUND_PAYOUT_CANCELLED: [{ guard: 'refundOpen' as const, actions: 'endRefund' as const }, { actions: 'acknowledge' as const }],
  };
}

/**
 * A payment's chargeback, in `status` (never changed): kept once per dispute, answered to the payment
 * and announced; the same dispute again is answered again and changes nothing (order-chargebacks.ts).
 */
function chargebackNews(status: OrderStatus) {
  return {
    APPLY_CHARGEBACK: [
      {
        guard: 'newChargeback' as const,
        actions: ['recordChargeback' as const, 'answerChargeback' as const, { type: 'announceChargeback' as const, params: { status } }],
      },
      { actions: 'answerChargeback' as const },
    ],
  };
}

/**
 * A resize of an order still owed (resize.ts): its repeat changes nothing; one that what
 * settled covers fulfils the order (ORDER_RESIZED, then ORDER_FULFILLED); any other takes
 * the new amount. Open attempts quoted on the old amount are ended first.
 */
function resizeIn(status: 'CREATED' | 'PARTIALLY_FULFILLED') {
  const resizing = ['endAttemptsQuotedBefore' as const, 'resize' as const];
  // Only settled value covers an amount, and a CREATED order holds none.
  const covering =
    status === 'PARTIALLY_FULFILLED'
      ? [
          {
            guard: { type: 'resizeCovers' as const, params: { status } },
            target: 'FULFILLED' as const,
            actions: [...resizing, 'markResizeCompleted' as const, { type: 'announceResized' as const, params: { status: 'FULFILLED' as const } }],
          },
        ]
      : [];
  return {
    RESIZE: [
      { guard: 'resizeKnown' as const, actions: 'acknowledge' as const },
      ...covering,
      { guard: { type: 'resizable' as const, params: { status } }, actions: [...resizing, { type: 'announceResized' as const, params: { status } }] },
    ],
  };
}

/** After a settlement: when it changed the chargeback status, the order announces it with the settling payment as trigger. */
const reviewChargebacks = (status: OrderStatus) => ({ type: 'reviewChargebacks' as const, params: { status } });

/** Outside FULFILLED a refund cannot be asked for; the same request again is taken and changes nothing. */
const repeatedRefund = { REFUND: { guard: 'refundKnown' as const, actions: 'acknowledge' as const } };

export const orderMachine = setup({
  types: {
    input: {} as OrderInput,
    context: {} as OrderContext,
    events: {} as OrderEvent,
    emitted: {} as OrderEmitted,
  },
  guards: {
    countsSettlement: ({ context, event }) => event.type === 'APPLY_SETTLEMENT' && settlementRefusal(context, event) === null,
    amountOpen: ({ context, event }) =>
      event.type === 'SET_AMOUNT' && context.amountMode === 'OPEN' && amountLock(context, 'CREATED') === null && !staleAmount(context, event),
    settlesInFull: ({ context, event }) =>
      event.type === 'APPLY_SETTLEMENT' && settlementRefusal(context, event) === null && coversOrder(context, event.usdcAmount),
    holdsSettlement: ({ context, event }) => event.type === 'RETRACT_SETTLEMENT' && holdsSettlement(context, event.paymentId),
    /** The retraction takes back the only settlement: nothing stays settled. */
    retractsLastSettlement: ({ context, event }) =>
      event.type === 'RETRACT_SETTLEMENT' && holdsSettlement(context, event.paymentId) && context.settlements.length === 1,
    /** What stays settled after the retraction still covers the order (an overpayment taken back). */
    stillCovered: ({ context, event }) =>
      event.type === 'RETRACT_SETTLEMENT' && holdsSettlement(context, event.paymentId) && coveredWithout(context, event.paymentId),
    /** A refund not asked for before, or one whose payout failed to prepare: the order reserves it (the kind refused it if it does not fit). */
    reservesRefund: ({ context, event }) => event.type === 'REFUND' && reservesAnew(context, event.payoutId),
    refundKnown: ({ context, event }) => event.type === 'REFUND' && !reservesAnew(context, event.payoutId),
    resizeKnown: ({ context, event }) => event.type === 'RESIZE' && resizeOf(context, event.idempotencyKey) !== undefined,
    resizable: ({ context, event }, params: { status: OrderStatus }) => event.type === 'RESIZE' && resizeRefusal(context, params.status, event) === null,
    resizeCovers: ({ context, event }, params: { status: OrderStatus }) =>
      event.type === 'RESIZE' && resizeRefusal(context, params.status, event) === null && resizeCovers(context, event.usdcAmount),
    refundReserved: ({ context, event }) => refundIn(context, event, ['RESERVED']),
    /** Its payout may still be funded. */
    refundOpen: ({ context, event }) => refundIn(context, event, ['RESERVED', 'PENDING']),
    newChargeback: ({ context, event }) => event.type === 'APPLY_CHARGEBACK' && chargebackOf(context, event.claim.disputeId) === undefined,
  },
  actions: {
    tell: (_, _params: { to: { kind: string; id: string }; event: Record<string, unknown> }) => {},
    recordBridge: assign(({ context, event }) => {
      assertEvent(event, 'BRIDGE_UPDATED');
      const { type: _type, ...news } = event;
      return { bridges: withBridge(context.bridges ?? [], news) };
    }),
    recordPayment: assign(({ context, event }) => {
      assertEvent(event, 'PAYMENT_UPDATED');
      return { payments: withPayment(context.payments, event.payment) };
    }),
    setAmount: assign(({ context, event }) => {
      assertEvent(event, 'SET_AMOUNT');
      return {
        requestedUsdcAmount: event.usdcAmount,
        remainingUsdcAmount: event.usdcAmount,
        amountVersion: context.amountVersion + 1,
        savedInput: event.fiat,
        updatedAt: event.at,
      };
    }),
    announceAmountSet: emit(({ context, event }, params: { previousAmountUsdc: string | null }) => {
      assertEvent(event, 'SET_AMOUNT');
      return {
        type: 'ORDER_AMOUNT_SET' as const,
        order: toCheckoutOrder(context, 'CREATED'),
        amountChange: {
          previousAmountUsdc: params.previousAmountUsdc,
          newAmountUsdc: formatUsdc(event.usdcAmount),
          fiat: event.fiat,
          amountVersion: context.amountVersion,
        },
      };
    }),
    resize: assign(({ context, event }) => {
      assertEvent(event, 'RESIZE');
      return resized(context, event);
    }),
    markResizeCompleted: assign(({ event }) => {
      assertEvent(event, 'RESIZE');
      return { completedAt: event.at };
    }),
    /** The open attempts were quoted on the old amount: each ends as a replaced attempt does, its intent released. */
    endAttemptsQuotedBefore: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'RESIZE');
      for (const payment of endedByResize(context.payments)) {
        // Named actions are typed only in the machine's config; the runtime reads the enqueued tell all the same.
        enqueue({ type: 'tell', params: { to: { kind: 'payment', id: payment.id }, event: { type: 'CANCEL', reason: 'REPLACED', at: event.at } } } as never);
      }
    }),
    announceResized: emit(({ context }, params: { status: OrderStatus }) => {
      const last = context.resizes.at(-1)!;
      return {
        type: 'ORDER_RESIZED' as const,
        order: toCheckoutOrder(context, params.status),
        resize: { previousAmountUsdc: formatUsdc(last.previousUsdc), newAmountUsdc: formatUsdc(last.newUsdc) },
      };
    }),
    recordSettlement: assign(({ context, event }) => {
      assertEvent(event, 'APPLY_SETTLEMENT');
      return applySettlement(context, { paymentId: event.paymentId, usdcAmount: event.usdcAmount, at: event.at });
    }),
    markCompleted: assign(({ event }) => {
      assertEvent(event, 'APPLY_SETTLEMENT');
      return { completedAt: event.at };
    }),
    takeBackSettlement: assign(({ context, event }) => {
      assertEvent(event, 'RETRACT_SETTLEMENT');
      return withoutSettlement(context, event);
    }),
    /** Still FULFILLED: completed when what stays settled first covered it. */
    redateCompleted: assign(({ context }) => ({ completedAt: coveredAt(context) })),
    clearCompleted: assign({ completedAt: null }),
    /**
     * Takes a message and changes nothing. A transition with neither target nor action is
     * not taken as far as xstate's can() goes, and the runtime refuses what is not taken.
     */
    acknowledge: assign(() => ({})),
    markCancelled: assign(({ event }) => {
      assertEvent(event, 'CANCEL');
      return { cancelledAt: event.at, updatedAt: event.at };
    }),
    reserveRefund: assign(({ context, event }) => {
      assertEvent(event, 'REFUND');
      const reserved: OrderRefund = {
        payoutId: event.payoutId,
        state: 'RESERVED',
        requestedUsdc: event.amountUsdc,
        refundedUsdc: null,
        transactionHash: null,
        metadata: event.metadata,
        requestedAt: event.at,
        createdAt: null,
        completedAt: null,
        endedAt: null,
      };
      const known = refundOf(context, event.payoutId) !== undefined;
      return { refunds: known ? withRefund(context.refunds, event.payoutId, () => reserved) : [...context.refunds, reserved] };
    }),
    openRefund: assign(({ context, event }) => refundChanged(context, event, (refund, at) => ({ ...refund, state: 'PENDING', createdAt: at }))),
    releaseRefund: assign(({ context, event }) => ({ refunds: withRefund(context.refunds, named(event)!, (refund) => ({ ...refund, state: 'RELEASED' })) })),
    completeRefund: assign(({ context, event }) => {
      assertEvent(event, 'REFUND_PAYOUT_FUNDED');
      return refundChanged(context, event, (refund, at) => ({
        ...refund,
        state: 'COMPLETED',
        refundedUsdc: event.refundedUsdc,
        transactionHash: event.transactionHash,
        createdAt: refund.createdAt ?? at,
        completedAt: at,
      }));
    }),
    endRefund: assign(({ context, event }) =>
      refundChanged(context, event, (refund, at) => ({
        ...refund,
        state: event.type === 'REFUND_PAYOUT_EXPIRED' ? 'EXPIRED' : 'CANCELLED',
        createdAt: refund.createdAt ?? at,
        endedAt: at,
      })),
    ),
    announceRefund: emit(({ context, event }, params: { type: 'REFUND_PENDING' | 'REFUND_COMPLETED'; status: OrderStatus }) => ({
      type: params.type,
      order: toCheckoutOrder(context, params.status),
      refund: refundView(refundOf(context, named(event)!)!)!,
    })),
    recordChargeback: assign(({ context, event }) => {
      assertEvent(event, 'APPLY_CHARGEBACK');
      const chargebacks = [...(context.chargebacks ?? []), chargebackFactOf(context, event.claim)];
      return { chargebacks, chargebackStatus: orderChargebackStatus({ ...context, chargebacks }) };
    }),
    /** The payment carries the fact as the order completed it. */
    answerChargeback: enqueueActions(({ context, event, enqueue }) => {
      assertEvent(event, 'APPLY_CHARGEBACK');
      const chargeback = chargebackOf(context, event.claim.disputeId);
      if (!chargeback) return;
      // Named actions are typed only in the machine's config; the runtime reads the enqueued tell all the same.
      enqueue({ type: 'tell', params: { to: { kind: 'payment', id: chargeback.paymentId }, event: { type: 'CHARGEBACK_RECORDED', chargeback } } } as never);
    }),
    announceChargeback: enqueueActions(({ context, event, enqueue }, params: { status: OrderStatus }) => {
      assertEvent(event, 'APPLY_CHARGEBACK');
      const type = chargebackEventOf(orderChargebackStatus(context));
      const chargeback = chargebackOf(context, event.claim.disputeId);
      if (!type || !chargeback) return;
      enqueue.emit({ type, order: toCheckoutOrder(context, params.status), trigger: { type: 'CHARGEBACK_APPLIED', chargeback } });
    }),
    reviewChargebacks: enqueueActions(({ context, event, enqueue }, params: { status: OrderStatus }) => {
      if (event.type !== 'APPLY_SETTLEMENT') return;
      const now = orderChargebackStatus(context);
      if (now === (context.chargebackStatus ?? 'NONE')) return;
      enqueue.assign({ chargebackStatus: now });
      const type = chargebackEventOf(now);
      if (type) enqueue.emit({ type, order: toCheckoutOrder(context, params.status), trigger: { type: 'PAYMENT_SETTLED', paymentId: event.paymentId } });
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
      payments: [],
      savedInput: null,
      refunds: [],
      chargebacks: [],
      chargebackStatus: 'NONE' as const,
      resizes: [],
      bridges: [],
      createdAt: at,
      updatedAt: at,
      cancelledAt: null,
      completedAt: null,
    };
  },
  entry: 'announceCreated',
  on: {
    // In every status: an attempt reports where it stands, and the newest open attempt replaces older open ones.
    PAYMENT_UPDATED: {
      actions: [
        enqueueActions(({ context, event, enqueue }) => {
          for (const older of supersededBy(context.payments, event.payment)) {
            enqueue({
              type: 'tell',
              params: { to: { kind: 'payment', id: older.id }, event: { type: 'CANCEL', reason: 'REPLACED', at: event.payment.createdAt } },
            });
          }
        }),
        'recordPayment',
      ],
    },
    // In every status: a payment's bridge says where it stands, kept for a chargeback of that payment (order-bridges.ts).
    BRIDGE_UPDATED: { actions: 'recordBridge' },
    // A settlement the order does not hold (never applied, or already taken back): nothing to take back.
    // Taken, not refused, so a retraction told twice is not a dead letter.
    RETRACT_SETTLEMENT: { actions: 'acknowledge' },
    // A resize asked again once the order moved on (fulfilled by it, say): the key names one it took, so nothing changes.
    RESIZE: { guard: 'resizeKnown', actions: 'acknowledge' },
  },
  initial: 'CREATED',
  states: {
    CREATED: {
      on: {
        APPLY_SETTLEMENT: [
          { guard: 'settlesInFull', target: 'FULFILLED', actions: ['recordSettlement', 'markCompleted'] },
          { guard: 'countsSettlement', target: 'PARTIALLY_FULFILLED', actions: ['recordSettlement', reviewChargebacks('PARTIALLY_FULFILLED')] },
        ],
        CANCEL: { target: 'CANCELLED', actions: 'markCancelled' },
        ...resizeIn('CREATED'),
        SET_AMOUNT: {
          guard: 'amountOpen',
          // The amount it replaces is read in the turn that replaces it, never from a view the gateway read earlier.
          actions: enqueueActions(({ context, enqueue }) => {
            const previous = context.requestedUsdcAmount;
            enqueue('setAmount');
            enqueue({ type: 'announceAmountSet', params: { previousAmountUsdc: previous === null ? null : formatUsdc(previous) } });
          }),
        },
        ...repeatedRefund,
        ...refundNews('CREATED'),
        ...chargebackNews('CREATED'),
      },
    },
    PARTIALLY_FULFILLED: {
      on: {
        APPLY_SETTLEMENT: [
          { guard: 'settlesInFull', target: 'FULFILLED', actions: ['recordSettlement', 'markCompleted'] },
          { guard: 'countsSettlement', actions: ['recordSettlement', reviewChargebacks('PARTIALLY_FULFILLED')] },
        ],
        CANCEL: { target: 'CANCELLED', actions: 'markCancelled' },
        ...resizeIn('PARTIALLY_FULFILLED'),
        RETRACT_SETTLEMENT: [
          { guard: 'retractsLastSettlement', target: 'CREATED', actions: 'takeBackSettlement' },
          { guard: 'holdsSettlement', actions: 'takeBackSettlement' },
        ],
        ...repeatedRefund,
        ...refundNews('PARTIALLY_FULFILLED'),
        ...chargebackNews('PARTIALLY_FULFILLED'),
      },
    },
    FULFILLED: {
      // ORDER_FULFILLED first: the settlement that covered the order may also change its chargeback status.
      entry: ['announceFulfilled', reviewChargebacks('FULFILLED')],
      on: {
        APPLY_SETTLEMENT: { guard: 'countsSettlement', actions: ['recordSettlement', reviewChargebacks('FULFILLED')] },
        RETRACT_SETTLEMENT: [
          { guard: 'retractsLastSettlement', target: 'CREATED', actions: ['takeBackSettlement', 'clearCompleted'] },
          { guard: 'stillCovered', actions: ['takeBackSettlement', 'redateCompleted'] },
          { guard: 'holdsSettlement', target: 'PARTIALLY_FULFILLED', actions: ['takeBackSettlement', 'clearCompleted'] },
        ],
        // Refunds never move the status (document 1): the order holds the amount and has the refund's payout made.
        REFUND: [
          {
            guard: 'reservesRefund',
            actions: [
              // The refund's payout: made with the gateway's message, or, when it failed to prepare, asked to prepare again.
              enqueueActions(({ context, event, enqueue }) => {
                assertEvent(event, 'REFUND');
                const retry = refundOf(context, event.payoutId)?.state === 'RELEASED';
                const message: Record<string, unknown> = retry ? { type: 'RETRY', at: event.at } : { ...event.payout };
                enqueue({ type: 'tell', params: { to: { kind: 'payout', id: event.payoutId }, event: message } });
              }),
              'reserveRefund',
            ],
          },
          { guard: 'refundKnown', actions: 'acknowledge' },
        ],
        ...refundNews('FULFILLED'),
        ...chargebackNews('FULFILLED'),
      },
    },
    CANCELLED: {
      entry: 'announceCancelled',
      on: {
        APPLY_SETTLEMENT: { guard: 'countsSettlement', actions: ['recordSettlement', reviewChargebacks('CANCELLED')] },
        // The status stays, as it does when a settlement arrives after the cancel.
        RETRACT_SETTLEMENT: { guard: 'holdsSettlement', actions: 'takeBackSettlement' },
        ...repeatedRefund,
        ...refundNews('CANCELLED'),
        ...chargebackNews('CANCELLED'),
      },
    },
  },
});
