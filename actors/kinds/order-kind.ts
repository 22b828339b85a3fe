/**
 * The `order` actor kind: one per checkout order. Its view is what the order reads
 * and lists serve without waking the actor: the CheckoutOrder, the hosted-only
 * fields, and at the top level the fields list queries filter and sort on.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  activePayment,
  chargebackRefusal,
  hostedOrderFields,
  orderMachine,
  paymentSelectedRail,
  refundOf,
  refundRefusal,
  refundViews,
  refundableUsdc,
  resizeRefusal,
  settledUsdc,
  settlementRefusal,
  staleAmount,
  toCheckoutOrder,
  type OrderContext,
  type OrderEvent,
  type OrderStatus,
  amountLock,
} from '../../machines/order/index.js';
import { formatUsdc } from '../../machines/money.js';
import { defineKind, type Rejection, type ReplyOf } from '../runtime/actor-kind.js';
import type { ActorDocument } from '../runtime/actor-document.js';
import { restore } from '../runtime/turn.js';
import { viewGrams } from './search-grams.js';

/** What the order kind keeps as its view: what the order reads query and answer from. */
export type OrderView = ReturnType<typeof orderView>;

export function orderView(context: OrderContext, status: OrderStatus) {
  const order = toCheckoutOrder(context, status);
  const searchText = orderSearchText(context);
  return {
    order,
    hosted: hostedOrderFields(context, status),
    merchantId: context.merchantId,
    environment: context.environment,
    status,
    chargebackStatus: order.chargebackStatus,
    createdAt: context.createdAt,
    idempotencyKey: context.idempotencyKey,
    requestHash: context.requestHash,
    orderTokenHash: context.orderTokenHash,
    hasActivePayment: activePayment(context.payments) !== null,
    hasExpiredPayment: context.payments.some((payment) => payment.status === 'EXPIRED'),
    paymentSelectedRail: paymentSelectedRail(context.payments),
    // The hosted read's currentPayment: the newest attempt only (document 1).
    currentPaymentId: context.payments[0]?.id ?? null,
    searchText,
    // Narrows a search to the views holding its trigrams before `searchText` decides (gateway/orders/order-search.ts).
    searchGrams: viewGrams(searchText),
    // Internal: the rate a fiat price was converted at (orders before it was kept have none).
    pricing: context.pricing ?? null,
    /** The refunds the merchant sees (the order's refunds read), newest first, and what may still be refunded. */
    refunds: refundViews(context.refunds),
    refundableAmountUsdc: formatUsdc(refundableUsdc(context)),
    /** Internal: the resizes the order took, by key, for a repeated resize request to be answered as the first. */
    resizes: context.resizes.map((resize) => ({
      idempotencyKey: resize.idempotencyKey,
      previousAmountUsdc: formatUsdc(resize.previousUsdc),
      newAmountUsdc: formatUsdc(resize.newUsdc),
    })),
    /** Internal: where each refund stands, reservations included, for the refund create to wait on. */
    refundStates: context.refunds.map((refund) => ({ payoutId: refund.payoutId, state: refund.state })),
  };
}

/** What the order list's `search` matches, lower-cased: id, notes and metadata JSON, and each payment's rail and railIdentifier. */
export function orderSearchText(context: OrderContext): string {
  const parts = [context.id];
  for (const value of [context.notes, context.metadata]) if (value !== null && value !== undefined) parts.push(JSON.stringify(value));
  for (const payment of context.payments) parts.push(payment.rail, ...(payment.railIdentifier ? [payment.railIdentifier] : []));
  // A newline between parts keeps a search from matching across the end of one and the start of the next.
  return parts.join('\n').toLowerCase();
}

export function orderRefusal(context: OrderContext, status: OrderStatus, event: EventObject): Rejection | null {
  const command = event as OrderEvent;
  if (command.type === 'CANCEL' && (status === 'FULFILLED' || status === 'CANCELLED')) {
    return { code: 'ORDER_STATUS_NOT_ELIGIBLE', message: `order ${context.id} is ${status} and can no longer be cancelled` };
  }
  if (command.type === 'APPLY_SETTLEMENT') return settlementRejection(context, command);
  if (command.type === 'SET_AMOUNT') return amountRejection(context, status, command);
  if (command.type === 'REFUND') return refundRejection(context, status, command);
  if (command.type === 'APPLY_CHARGEBACK' && chargebackRefusal(command.claim) !== null)
    return { code: 'INVALID_CHARGEBACK', message: 'a chargeback names its payment, its dispute and a positive USDC amount in base units' };
  if (command.type === 'RESIZE') return resizeRejection(context, status, command);
  if (command.type.startsWith('REFUND_PAYOUT_') && 'payoutId' in command && !refundOf(context, command.payoutId))
    return { code: 'REFUND_NOT_FOUND', message: `order ${context.id} holds no refund paid by payout ${command.payoutId}` };
  return null;
}

/** docs/refunds.md: a refund of a FULFILLED order, within what settled and is not refunded yet. */
function refundRejection(context: OrderContext, status: OrderStatus, request: { payoutId: string; amountUsdc: bigint }): Rejection | null {
  switch (refundRefusal(context, status, request)) {
    case 'INVALID_AMOUNT':
      return { code: 'INVALID_AMOUNT', message: 'a refund must be a positive USDC amount in base units' };
    case 'ORDER_NOT_REFUNDABLE':
      return { code: 'ORDER_NOT_REFUNDABLE', message: `order ${context.id} is ${status}: only a FULFILLED order is refunded`, details: { status } };
    case 'REFUND_EXCEEDS_REFUNDABLE': {
      const refundable = formatUsdc(refundableUsdc(context));
      return {
        code: 'REFUND_EXCEEDS_REFUNDABLE',
        message: `order ${context.id} may be refunded ${refundable} USDC more, less than the ${formatUsdc(request.amountUsdc)} USDC asked`,
        details: { refundableAmountUsdc: refundable },
      };
    }
    case null:
      return null;
  }
}

const RESIZE_REASONS = {
  OPEN_AMOUNT: 'has an open amount, which the customer sets',
  DYNAMIC_ORDERS_DISABLED: 'was created with dynamic orders disabled',
  ORDER_FULFILLED: 'is FULFILLED',
  ORDER_CANCELLED: 'is CANCELLED',
  PAYMENT_MAY_SETTLE: 'has an attempt that may still settle (a proof being verified or settled, or the customer said they paid)',
  BELOW_SETTLED: 'has more settled than the new amount',
  SAME_AMOUNT: 'is at that amount already',
} as const;

/** docs/resize.md: RESIZE_NOT_SUPPORTED, with the reason and what settled, for every resize the order refuses. */
function resizeRejection(context: OrderContext, status: OrderStatus, request: { usdcAmount: bigint; idempotencyKey: string }): Rejection | null {
  const reason = resizeRefusal(context, status, request);
  if (reason === null) return null;
  if (reason === 'INVALID_AMOUNT') return { code: 'INVALID_AMOUNT', message: 'a resize must be a positive USDC amount in base units' };
  return {
    code: 'RESIZE_NOT_SUPPORTED',
    message: `order ${context.id} cannot be resized: it ${RESIZE_REASONS[reason]}`,
    details: { reason, settledUsdcAmount: formatUsdc(settledUsdc(context)) },
  };
}

/** The open-amount codes of document 1, with the statuses docs/payments.md gives them. */
function amountRejection(context: OrderContext, status: OrderStatus, save: { amountVersion?: number | undefined }): Rejection | null {
  if (context.amountMode !== 'OPEN')
    return { code: 'AMOUNT_NOT_ALLOWED', message: `order ${context.id} has a fixed amount; only an open amount is set by the customer` };
  if (staleAmount(context, save)) {
    return {
      code: 'AMOUNT_CONFLICT',
      message: `The amount changed since version ${save.amountVersion}; it is at version ${context.amountVersion}`,
      details: { amountVersion: context.amountVersion },
    };
  }
  const lock = amountLock(context, status);
  if (lock !== null) return { code: 'AMOUNT_LOCKED', message: `the amount of order ${context.id} is locked (${lock})`, details: { amountLock: lock } };
  if (status !== 'CREATED') return { code: 'AMOUNT_LOCKED', message: `order ${context.id} is ${status}`, details: { amountLock: null } };
  return null;
}

function settlementRejection(context: OrderContext, settlement: { paymentId: string; usdcAmount: bigint }): Rejection | null {
  switch (settlementRefusal(context, settlement)) {
    case 'INVALID_AMOUNT':
      return { code: 'INVALID_AMOUNT', message: 'a settlement must be a positive USDC amount in base units' };
    case 'AMOUNT_REQUIRED':
      return { code: 'AMOUNT_REQUIRED', message: `order ${context.id} has no amount yet, so nothing can settle against it` };
    case 'SETTLEMENT_ALREADY_APPLIED':
      return { code: 'SETTLEMENT_ALREADY_APPLIED', message: `payment ${settlement.paymentId} has already settled against order ${context.id}` };
    case null:
      return null;
  }
}

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as OrderContext;
const statusOf = (snapshot: AnyMachineSnapshot) => snapshot.value as OrderStatus;

export const orderKind = defineKind({
  name: 'order',
  machine: orderMachine,
  machineVersion: 6,
  migrations: {
    // Version 2 keeps the order's payments and the open amount's saved input.
    1: (persisted) => ({ ...persisted, context: { payments: [], savedInput: null, ...(persisted.context as Record<string, unknown>) } }),
    // Version 3 keeps the order's refunds.
    2: (persisted) => ({ ...persisted, context: { refunds: [], ...(persisted.context as Record<string, unknown>) } }),
    // Version 4 keeps the chargebacks of its payments (docs/chargebacks.md): none before.
    3: (persisted) => ({ ...persisted, context: { chargebacks: [], chargebackStatus: 'NONE', ...(persisted.context as Record<string, unknown>) } }),
    // Version 5 keeps the order's resizes (and decides SET_AMOUNT's amountVersion itself).
    4: (persisted) => ({ ...persisted, context: { resizes: [], ...(persisted.context as Record<string, unknown>) } }),
    // Version 6 keeps where its payments' bridges stand (docs/bridges.md): none told before.
    5: (persisted) => ({ ...persisted, context: { bridges: [], ...(persisted.context as Record<string, unknown>) } }),
  },
  createdBy: ['CREATE'],
  view: (snapshot) => orderView(contextOf(snapshot), statusOf(snapshot)),
  // The token hash lets the creator tell its own creation from a concurrent one with the same idempotency key.
  reply: (snapshot, _event, _id, view) => ({ order: view.order, orderTokenHash: contextOf(snapshot).orderTokenHash }),
  check: (snapshot, event) => orderRefusal(contextOf(snapshot), statusOf(snapshot), event),
  viewIndexes: [
    { key: { 'view.merchantId': 1, 'view.environment': 1, 'view.createdAt': -1 }, name: 'order_by_merchant_newest' },
    { key: { 'view.merchantId': 1, 'view.environment': 1, 'view.status': 1, 'view.createdAt': -1 }, name: 'order_by_merchant_status_newest' },
    {
      key: { 'view.merchantId': 1, 'view.environment': 1, 'view.idempotencyKey': 1 },
      name: 'order_by_idempotency_key',
      unique: true,
      // Orders without a key (null) are not indexed, so any number of them may coexist.
      partialFilterExpression: { 'view.idempotencyKey': { $type: 'string' } },
    },
    // Multikey: one key per trigram. Grams lead so the embedded store keeps a posting set per gram; in
    // MongoDB a gram with the merchant and environment pinned bounds the scan as tightly either way.
    { key: { 'view.searchGrams': 1, 'view.merchantId': 1, 'view.environment': 1 }, name: 'order_by_search_gram', multikey: true },
  ],
});

/**
 * The view the order kind publishes today for a stored order: its stored view, or, for an
 * order an older machine last wrote (its view lacks what came since, its refunds among them),
 * the view its migrated snapshot gives. Pure: a read still wakes no actor.
 */
export function currentOrderView(doc: Pick<ActorDocument<OrderView>, '_id' | 'snapshot' | 'machineVersion' | 'view'>): OrderView {
  if (doc.machineVersion === orderKind.machineVersion) return doc.view;
  const snapshot = restore(orderKind, doc);
  return orderView(contextOf(snapshot), statusOf(snapshot));
}

/** What an order's commands answer: its CheckoutOrder, and the token hash that tells its creator the create was its own. */
export type OrderReply = ReplyOf<typeof orderKind>;
