/**
 * The merchant's dispute reads: a page of its disputes, newest first, and one by id. A key
 * sees its own environment only, and another merchant's dispute reads as not found. The
 * order's side (orderRefunded, activeAttempt) is read from the order as it is now.
 */
import type { z } from 'zod';
import { disputeKind, type DisputeView } from '../../actors/kinds/dispute-kind.js';
import { orderKind } from '../../actors/kinds/order-kind.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { ViewFilter } from '../../actors/runtime/view-collection.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import { newestPage } from '../paged-views.js';
import type { listDisputesQuery } from './dispute-schemas.js';

function disputeNotFound(): ApiError {
  return new ApiError(404, 'Dispute not found', 'NOT_FOUND');
}

/** The merchant's read view of each dispute, with its order's refund and attempt now. */
async function merchantDisputes(system: ActorSystem, views: DisputeView[]) {
  const orderIds = [...new Set(views.map((view) => view.orderId))];
  const orders = orderIds.length
    ? await system
        .views(orderKind)
        .find({ _id: { $in: orderIds } }, { projection: { 'view.order': 1, 'view.hasActivePayment': 1, 'view.currentPaymentId': 1 } })
    : [];
  const byId = new Map(orders.map((doc) => [doc._id, doc.view]));
  return views.map((view) => {
    const order = byId.get(view.orderId);
    return {
      ...view.read,
      ...view.dispute,
      orderRefunded: order?.order.refundStatus === 'COMPLETED',
      activeAttempt: order?.hasActivePayment ? order.currentPaymentId : null,
    };
  });
}

export async function listDisputes(system: ActorSystem, account: MerchantAccount, query: z.infer<typeof listDisputesQuery>, totalCap: number) {
  const filter: ViewFilter<DisputeView> = { 'view.merchantId': account.merchantId, 'view.environment': account.environment };
  if (query.status) filter['view.status'] = query.status;
  const { docs, ...total } = await newestPage(system.views(disputeKind), filter, query, { view: 1 }, totalCap);
  return {
    disputes: await merchantDisputes(
      system,
      docs.map((doc) => doc.view),
    ),
    ...total,
    page: query.page,
    limit: query.limit,
  };
}

/** The dispute when it is this account's; 404 otherwise, whoever's it is. */
export async function ownDispute(system: ActorSystem, account: MerchantAccount, id: string): Promise<DisputeView> {
  const doc = await system
    .views(disputeKind)
    .findOne({ _id: id, 'view.merchantId': account.merchantId, 'view.environment': account.environment }, { projection: { view: 1 } });
  if (!doc) throw disputeNotFound();
  return doc.view;
}

export async function merchantDisputeOf(system: ActorSystem, view: DisputeView) {
  const [read] = await merchantDisputes(system, [view]);
  return read!;
}
