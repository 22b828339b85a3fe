/**
 * Model-based tests of the order machine on the `order` kind, against document 1's order
 * status table (../shared/spec/1-checkout-api.md, "States and transitions", "Order status")
 * and its order events ("Events": ORDER_AMOUNT_SET carries `data.amountChange`).
 */
import test from 'ava';
import { toCheckoutOrder, type OrderContext } from '../../../machines/order/index.js';
import { NEW, type DocumentTable } from '../../support/model-document.js';
import type { MachineModel, ModelStep } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { CHECKOUT_EVENTS } from './checkout-events.js';
import { ORDER_KIND, ORDER_VARIANTS, orderAbstraction, orderEvents } from './order-events.js';

const STATUS_TABLE = 'document 1, States and transitions, Order status';
const contextAfter = (step: { after: { context: unknown } }) => step.after.context as OrderContext;
const REFUNDS = 'document 1, Events (Refund) and States ("Chargebacks and refunds never move status off FULFILLED"); docs/refunds.md';
const RESIZES = 'document 1, Events (ORDER_RESIZED, data.resize); docs/resize.md';
/** The step's resize names a key the order had not taken: a repeat is acknowledged and changes nothing. */
const resizeIsNew = (step: { before: { context: unknown } | null; event: unknown }) =>
  !(step.before?.context as OrderContext | undefined)?.resizes.some(
    (resize) => resize.idempotencyKey === (step.event as { idempotencyKey?: string }).idempotencyKey,
  );
const STATUSES = ['CREATED', 'PARTIALLY_FULFILLED', 'FULFILLED', 'CANCELLED'] as const;
const CHARGEBACKS =
  'document 1, Events (Chargeback), PaymentChargebackFact and States ("Chargebacks and refunds never move status off FULFILLED"); docs/chargebacks.md';
/** The chargeback event a settlement announces: the one of the order's new chargeback status, when the settlement changed it. */
const chargebackChange = (step: ModelStep): string[] => {
  if (step.event.type !== 'APPLY_SETTLEMENT' || step.before === null) return [];
  const before = (step.before.context as OrderContext).chargebackStatus;
  const after = contextAfter(step).chargebackStatus;
  return before === after || after === 'NONE' ? [] : [`ORDER_${after}`];
};
const isNewChargeback = (step: ModelStep) =>
  step.before !== null && (step.before.context as OrderContext).chargebacks.length < contextAfter(step).chargebacks.length;
const keptAndAnswered = (step: ModelStep) =>
  contextAfter(step).chargebacks.some((fact) => fact.disputeId === (step.event as unknown as { claim: { disputeId: string } }).claim.disputeId) &&
  step.actions.some((action) => action.type === 'tell' && (action.params as { event: { type: string } }).event.type === 'CHARGEBACK_RECORDED');
const claimOf = (step: ModelStep) => (step.event as unknown as { claim: { paymentId: string; disputeId: string } }).claim;
/** What the order had heard of the charged-back payment's bridge before the chargeback. */
const bridgeHeard = (step: ModelStep) =>
  (step.before?.context as OrderContext | undefined)?.bridges.find((bridge) => bridge.paymentId === claimOf(step).paymentId);
/** The fact names the charged-back payment's bridge as the order last heard of it, or null when none told it. */
const namesBridge = (step: ModelStep) => {
  const claim = claimOf(step);
  const heard = bridgeHeard(step);
  const fact = contextAfter(step).chargebacks.find((chargeback) => chargeback.disputeId === claim.disputeId);
  const expected = heard === undefined ? null : { paymentBridgeId: heard.paymentBridgeId, status: heard.status };
  return JSON.stringify(fact?.bridgeOrSweepOverlap) === JSON.stringify(expected);
};
const BRIDGES = 'document 1, PaymentChargebackFact (bridgeOrSweepOverlap); docs/bridges.md, docs/chargebacks.md';
const chargebackStatusAfter = (step: ModelStep, status: (typeof STATUSES)[number]) => toCheckoutOrder(contextAfter(step), status).chargebackStatus;
/** Where the refund the step's news names stood before it. */
const refundBefore = (step: { before: { context: unknown } | null; event: unknown }) =>
  (step.before?.context as OrderContext | undefined)?.refunds.find((refund) => refund.payoutId === (step.event as { payoutId?: string }).payoutId)?.state;

const document: DocumentTable = {
  events: CHECKOUT_EVENTS,
  rows: [
    { section: STATUS_TABLE, row: 'order creation: CREATED', from: [NEW], by: ['create'], to: 'CREATED', emits: ['ORDER_CREATED'] },
    {
      section: STATUS_TABLE,
      row: 'a settlement that covers less than the order: PARTIALLY_FULFILLED',
      from: ['CREATED'],
      by: ['APPLY_SETTLEMENT'],
      to: 'PARTIALLY_FULFILLED',
      // A settlement after a chargeback (its settlement taken back meanwhile) may change the chargeback status too.
      emits: chargebackChange,
      holds: { what: 'remainingUsdcAmount above zero', check: (step) => (contextAfter(step).remainingUsdcAmount ?? 0n) > 0n },
    },
    {
      section: STATUS_TABLE,
      row: 'a settlement that covers the order: FULFILLED',
      from: ['CREATED', 'PARTIALLY_FULFILLED'],
      by: ['APPLY_SETTLEMENT'],
      to: 'FULFILLED',
      emits: (step) => ['ORDER_FULFILLED', ...chargebackChange(step)],
      holds: { what: 'completedAt set', check: (step) => contextAfter(step).completedAt !== null },
    },
    {
      section: STATUS_TABLE,
      row: 'payment attempt window closes: CREATED unchanged',
      from: ['CREATED'],
      by: ['PAYMENT_UPDATED'],
      to: 'CREATED',
      emits: [],
      when: (step) => (step.event as { payment?: { status?: string } }).payment?.status === 'EXPIRED',
    },
    {
      section: STATUS_TABLE,
      row: 'cancel from the dashboard: CANCELLED',
      from: ['CREATED', 'PARTIALLY_FULFILLED'],
      by: ['CANCEL'],
      to: 'CANCELLED',
      emits: ['ORDER_CANCELLED'],
      holds: { what: 'cancelledAt set', check: (step) => contextAfter(step).cancelledAt !== null },
    },
    {
      section: 'document 1, Events, Order payload (data.amountChange, ORDER_AMOUNT_SET only)',
      row: 'an open amount set: ORDER_AMOUNT_SET',
      from: ['CREATED'],
      by: ['SET_AMOUNT'],
      to: 'CREATED',
      emits: ['ORDER_AMOUNT_SET'],
    },
    // A chargeback never moves the status; the order's chargeback status follows the amounts (docs/chargebacks.md).
    ...STATUSES.filter((status) => status !== 'CREATED').flatMap((status) => [
      {
        section: CHARGEBACKS,
        row: `a chargeback that leaves part of what settled: ORDER_PARTIALLY_CHARGEBACKED, ${status} unchanged`,
        from: [status],
        by: ['APPLY_CHARGEBACK'],
        to: status,
        emits: ['ORDER_PARTIALLY_CHARGEBACKED'],
        when: (step: ModelStep) => chargebackStatusAfter(step, status) === 'PARTIALLY_CHARGEBACKED' && isNewChargeback(step) && bridgeHeard(step) === undefined,
        holds: {
          what: 'the fact kept on chargebacks, naming the payment’s bridge as last told, and answered to its payment',
          check: (step: ModelStep) => keptAndAnswered(step) && namesBridge(step),
        },
      },
      {
        section: CHARGEBACKS,
        row: `a chargeback of all that settled: ORDER_CHARGEBACKED, ${status} unchanged`,
        from: [status],
        by: ['APPLY_CHARGEBACK'],
        to: status,
        emits: ['ORDER_CHARGEBACKED'],
        when: (step: ModelStep) => chargebackStatusAfter(step, status) === 'CHARGEBACKED' && isNewChargeback(step) && bridgeHeard(step) === undefined,
        holds: {
          what: 'the fact kept on chargebacks, naming the payment’s bridge as last told, and answered to its payment',
          check: (step: ModelStep) => keptAndAnswered(step) && namesBridge(step),
        },
      },
      {
        section: BRIDGES,
        row: `a chargeback of a bridged payment: its chargeback event, the fact naming the bridge, ${status} unchanged`,
        from: [status],
        by: ['APPLY_CHARGEBACK'],
        to: status,
        emits: (step: ModelStep) => [`ORDER_${chargebackStatusAfter(step, status)}`],
        // A chargeback of a payment that settled nothing against the order counts nothing, and is announced by none.
        when: (step: ModelStep) => isNewChargeback(step) && bridgeHeard(step) !== undefined && chargebackStatusAfter(step, status) !== 'NONE',
        holds: {
          what: 'bridgeOrSweepOverlap is the payment’s bridge as last told, and the fact answered to its payment',
          check: (step: ModelStep) => keptAndAnswered(step) && namesBridge(step) && contextAfter(step).chargebacks.at(-1)!.bridgeOrSweepOverlap !== null,
        },
      },
      {
        section: CHARGEBACKS,
        row: `a later settlement changes the chargeback picture: the new status announced, ${status} unchanged`,
        from: [status],
        by: ['APPLY_SETTLEMENT'],
        to: status,
        emits: chargebackChange,
        when: (step: ModelStep) => chargebackChange(step).length > 0,
        holds: {
          what: 'data.trigger names the settling payment',
          check: (step: ModelStep) =>
            step.actions.some(
              (action) =>
                action.type === 'xstate.emit' &&
                (action.params as { event: { trigger?: { type: string; paymentId?: string } } }).event.trigger?.paymentId ===
                  (step.event as unknown as { paymentId: string }).paymentId,
            ),
        },
      },
    ]),
    // A bridge's news never moves the status nor announces anything: the order keeps the newest per payment for a later chargeback.
    ...STATUSES.map((status) => ({
      section: BRIDGES,
      row: `a payment’s bridge tells its status: kept, ${status} unchanged, nothing announced`,
      from: [status],
      by: ['BRIDGE_UPDATED'],
      to: status,
      emits: [],
      holds: {
        what: 'the newest news of the payment’s bridge kept, one per payment',
        check: (step: ModelStep) => {
          const news = step.event as unknown as { paymentId: string; at: string };
          const kept = contextAfter(step).bridges.filter((bridge) => bridge.paymentId === news.paymentId);
          return kept.length === 1 && kept[0]!.at >= news.at;
        },
      },
    })),
    // Document 1 names ORDER_RESIZED and shows no trigger: docs/resize.md gives the rules.
    ...(['CREATED', 'PARTIALLY_FULFILLED'] as const).map((status) => ({
      section: RESIZES,
      row: `a merchant resize of a ${status} order: ORDER_RESIZED, ${status} unchanged`,
      from: [status],
      by: ['RESIZE'],
      to: status,
      emits: ['ORDER_RESIZED'],
      when: resizeIsNew,
      holds: {
        what: 'requestedFiat withdrawn and what remains counted from the new amount',
        check: (step: { after: { context: unknown } }) => {
          const context = contextAfter(step);
          const settled = context.settlements.reduce((sum, settlement) => sum + settlement.usdcAmount, 0n);
          return context.requestedFiat === null && context.remainingUsdcAmount === (context.requestedUsdcAmount ?? 0n) - settled;
        },
      },
    })),
    {
      section: RESIZES,
      row: 'a resize down to what settled: ORDER_RESIZED then ORDER_FULFILLED',
      from: ['PARTIALLY_FULFILLED'],
      by: ['RESIZE'],
      to: 'FULFILLED',
      emits: ['ORDER_RESIZED', 'ORDER_FULFILLED'],
      holds: { what: 'completedAt set', check: (step) => contextAfter(step).completedAt !== null },
    },
    // A refund's news reaches the order whatever its status (a reorganisation may have moved it off FULFILLED); the status never moves.
    ...STATUSES.flatMap((status) => [
      {
        section: REFUNDS,
        row: `a refund’s payout is created: REFUND_PENDING, ${status} unchanged`,
        from: [status],
        by: ['REFUND_PAYOUT_CREATED'],
        to: status,
        emits: ['REFUND_PENDING'],
        when: (step: Parameters<typeof refundBefore>[0]) => refundBefore(step) === 'RESERVED',
        holds: {
          what: 'refundStatus PENDING',
          check: (step: { after: { context: unknown } }) => toCheckoutOrder(contextAfter(step), status).refundStatus === 'PENDING',
        },
      },
      {
        section: REFUNDS,
        row: `a refund’s payout is funded: REFUND_COMPLETED, ${status} unchanged`,
        from: [status],
        by: ['REFUND_PAYOUT_FUNDED'],
        to: status,
        emits: ['REFUND_COMPLETED'],
        when: (step: Parameters<typeof refundBefore>[0]) => refundBefore(step) === 'RESERVED' || refundBefore(step) === 'PENDING',
        holds: {
          what: 'refundStatus COMPLETED and refundTransactionHash set',
          check: (step: { after: { context: unknown } }) => {
            const order = toCheckoutOrder(contextAfter(step), status);
            return order.refundStatus === 'COMPLETED' && order.refundTransactionHash !== null;
          },
        },
      },
    ]),
  ],
  beyond: {
    // Document 1 has no chain reorganisations; the status follows what stays settled (machines/order/order-machine.ts).
    'order.PARTIALLY_FULFILLED|RETRACT_SETTLEMENT|0': 'a settlement a reorganisation removed is taken back: nothing stays settled',
    'order.FULFILLED|RETRACT_SETTLEMENT|0': 'a settlement a reorganisation removed is taken back: nothing stays settled',
    'order.FULFILLED|RETRACT_SETTLEMENT|2': 'a settlement a reorganisation removed is taken back: what stays no longer covers the order',
  },
};

const model: MachineModel = {
  name: 'order',
  kind: ORDER_KIND,
  variants: ORDER_VARIANTS,
  events: orderEvents,
  abstract: orderAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
  viewStatus: (view) => {
    const order = view.order as { status: string };
    return order.status === view.status ? view.status : `view ${String(view.status)}, order ${order.status}`;
  },
  document,
};

modelTests(test, model);
