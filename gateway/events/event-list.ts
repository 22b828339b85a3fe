/** The account's events, newest first, paged as every merchant list is (paged-views.ts). */
import type { MerchantEventLog } from '../../actors/merchant-events/event-log.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import type { z } from 'zod';
import type { ListEventsQuery, merchantEvent } from './event-schemas.js';

export async function listEvents(log: MerchantEventLog, account: MerchantAccount, query: ListEventsQuery) {
  const { rows, total } = await log.page({ merchantId: account.merchantId, types: query.type, orderId: query.orderId, paymentId: query.paymentId }, query);
  return { events: rows.map((row) => row.payload as z.input<typeof merchantEvent>), total, page: query.page, limit: query.limit };
}
