/**
 * The merchant's payment reads: every attempt across orders, paged and newest first,
 * and every attempt of one order. Queries of the payment actors' views that wake no
 * actor; a key sees its own environment only, so a sandbox key lists sandbox payments.
 */
import type { z } from 'zod';
import { orderKind } from '../../actors/kinds/order-kind.js';
import { paymentKind, type PaymentView } from '../../actors/kinds/payment-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { ViewFilter } from '../../actors/runtime/view-collection.js';
import { orderNotFound } from '../checkout/order-access.js';
import { NEWEST_FIRST, newestPage } from '../paged-views.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import type { listPaymentsQuery } from './payment-schemas.js';

type ListQuery = z.infer<typeof listPaymentsQuery>;

export async function listPayments(system: ActorSystem, account: MerchantAccount, query: ListQuery, totalCap: number) {
  const filter: ViewFilter<PaymentView> = { 'view.merchantId': account.merchantId, 'view.environment': account.environment };
  if (query.status) filter['view.status'] = query.status;
  if (query.chargebackStatus) filter['view.chargebackStatus'] = query.chargebackStatus;
  if (query.rail) filter['view.rail'] = query.rail;
  if (query.orderId) filter['view.orderId'] = query.orderId;
  if (query.createdFrom || query.createdTo) {
    // Views keep ISO times from one clock in one format, so they compare as strings.
    filter['view.createdAt'] = {
      ...(query.createdFrom ? { $gte: new Date(query.createdFrom).toISOString() } : {}),
      ...(query.createdTo ? { $lt: new Date(query.createdTo).toISOString() } : {}),
    };
  }
  const { docs, ...total } = await newestPage(system.views(paymentKind), filter, query, { view: 1 }, totalCap);
  return { payments: docs.map((doc) => doc.view.payment), ...total, page: query.page, limit: query.limit };
}

/** Every attempt of the order, newest first; 404 when the order is not this key's merchant's, in this environment. */
export async function orderPayments(system: ActorSystem, account: MerchantAccount, orderId: string) {
  const order = await system
    .views(orderKind)
    .findOne({ _id: orderId, 'view.merchantId': account.merchantId, 'view.environment': account.environment }, { projection: { _id: 1 } });
  if (!order) throw orderNotFound();
  const docs = await system.views(paymentKind).find({ 'view.orderId': orderId }, { sort: NEWEST_FIRST, projection: { view: 1 } });
  return { payments: docs.map((doc) => doc.view.payment) };
}
