/**
 * The `order` actor kind: one per checkout order. Its view is what the order reads
 * and lists serve without waking the actor: the CheckoutOrder, the hosted-only
 * fields, and at the top level the fields list queries filter and sort on.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  hostedOrderFields,
  orderMachine,
  settlementRefusal,
  toCheckoutOrder,
  type CreateOrderEvent,
  type OrderContext,
  type OrderEvent,
  type OrderStatus,
} from '../../machines/order/index.js';
import { defineKind, type Rejection } from '../runtime/actor-kind.js';
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
    // Payments set these once they exist; until then no order has an attempt.
    hasActivePayment: false,
    hasExpiredPayment: false,
    paymentSelectedRail: null,
    searchText,
    // Narrows a search to the views holding its trigrams before `searchText` decides (gateway/orders/order-search.ts).
    searchGrams: viewGrams(searchText),
    // Internal: the rate a fiat price was converted at (orders before it was kept have none).
    pricing: context.pricing ?? null,
  };
}

/** What the order list's `search` matches, lower-cased; payments will add their rail and railIdentifier. */
export function orderSearchText(context: OrderContext): string {
  const parts = [context.id];
  for (const value of [context.notes, context.metadata]) if (value !== null && value !== undefined) parts.push(JSON.stringify(value));
  // A newline between parts keeps a search from matching across the end of one and the start of the next.
  return parts.join('\n').toLowerCase();
}

export function orderRefusal(context: OrderContext, status: OrderStatus, event: EventObject): Rejection | null {
  const command = event as OrderEvent;
  if (command.type === 'CANCEL' && (status === 'FULFILLED' || status === 'CANCELLED')) {
    return { code: 'ORDER_STATUS_NOT_ELIGIBLE', message: `order ${context.id} is ${status} and can no longer be cancelled`, status: 409 };
  }
  if (command.type === 'APPLY_SETTLEMENT') return settlementRejection(context, command);
  return null;
}

function settlementRejection(context: OrderContext, settlement: { paymentId: string; usdcAmount: bigint }): Rejection | null {
  switch (settlementRefusal(context, settlement)) {
    case 'INVALID_AMOUNT':
      return { code: 'INVALID_AMOUNT', message: 'a settlement must be a positive USDC amount in base units', status: 400 };
    case 'AMOUNT_REQUIRED':
      return { code: 'AMOUNT_REQUIRED', message: `order ${context.id} has no amount yet, so nothing can settle against it`, status: 409 };
    case 'SETTLEMENT_ALREADY_APPLIED':
      return { code: 'SETTLEMENT_ALREADY_APPLIED', message: `payment ${settlement.paymentId} has already settled against order ${context.id}`, status: 409 };
    case null:
      return null;
  }
}

const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as OrderContext;
const statusOf = (snapshot: AnyMachineSnapshot) => snapshot.value as OrderStatus;

export const orderKind = defineKind({
  name: 'order',
  machine: orderMachine,
  machineVersion: 1,
  createdBy: ['CREATE'],
  view: (snapshot) => orderView(contextOf(snapshot), statusOf(snapshot)),
  // The token hash lets the creator tell its own creation from a concurrent one with the same idempotency key.
  reply: (snapshot) => ({ order: toCheckoutOrder(contextOf(snapshot), statusOf(snapshot)), orderTokenHash: contextOf(snapshot).orderTokenHash }),
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
    { key: { 'view.searchGrams': 1, 'view.merchantId': 1, 'view.environment': 1 }, name: 'order_by_search_gram' },
  ],
});
