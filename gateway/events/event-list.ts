/** The account's events, newest first, paged as every merchant list is (paged-views.ts). */
import type { MerchantEventLog } from '../../actors/merchant-events/event-log.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import type { z } from 'zod';
import type { ListEventsQuery, merchantEvent } from './event-schemas.js';
import { cappedTotal, countLimit } from '../paged-views.js';

export async function listEvents(log: MerchantEventLog, account: MerchantAccount, query: ListEventsQuery, totalCap: number) {
  const filter = { merchantId: account.merchantId, types: query.type, orderId: query.orderId, paymentId: query.paymentId };
  const { rows, counted } = await log.page(filter, query, countLimit(totalCap).limit);
  return { events: rows.map((row) => row.payload as z.input<typeof merchantEvent>), ...cappedTotal(counted, totalCap), page: query.page, limit: query.limit };
}
