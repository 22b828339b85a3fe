/** The merchant's order list: a query of the order actors' views that wakes no actor. */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { orderKind, type OrderView } from '../../actors/kinds/order-kind.js';
import type { ViewFilter } from '../../actors/runtime/view-collection.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import type { z } from 'zod';
import type { listOrdersQuery } from './order-schemas.js';
import { escapeRegex, searchFilter } from './order-search.js';
import { newestPage } from '../paged-views.js';

type ListQuery = z.infer<typeof listOrdersQuery>;

const MIN_SEARCH = 3;

export async function listOrders(system: ActorSystem, account: MerchantAccount, query: ListQuery, totalCap: number) {
  const filter: ViewFilter<OrderView> = { 'view.merchantId': account.merchantId, 'view.environment': account.environment };
  const search = query.search?.trim();
  if (search && search.length >= MIN_SEARCH) Object.assign(filter, searchFilter(search));
  else if (query.orderId) filter._id = { $regex: escapeRegex(query.orderId), $options: 'i' };
  if (query.displayStatus) {
    filter['view.status'] = 'CREATED';
    filter['view.hasActivePayment'] = query.displayStatus === 'ACTIVE';
    if (query.displayStatus !== 'ACTIVE') filter['view.hasExpiredPayment'] = query.displayStatus === 'EXPIRED';
  } else if (query.status) {
    filter['view.status'] = query.status;
  }
  if (query.chargebackStatus) filter['view.chargebackStatus'] = query.chargebackStatus;

  const { docs, ...total } = await newestPage(system.views(orderKind), filter, query, { view: 1 }, totalCap);
  return {
    orders: docs.map((doc) => {
      const { view } = doc;
      return {
        ...view.order,
        hasActivePayment: view.hasActivePayment,
        hasExpiredPayment: view.hasExpiredPayment,
        paymentSelectedRail: view.paymentSelectedRail,
      };
    }),
    ...total,
    page: query.page,
    limit: query.limit,
  };
}
