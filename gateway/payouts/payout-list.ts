/**
 * GET /api/v1/payouts: the merchant's payouts, newest first, filtered by the customer's
 * e-mail (exact, case-insensitive), status and merchantReference (exact). Payouts that
 * never finished preparing are not listed: for the merchant they do not exist.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { payoutKind } from '../../actors/kinds/payout-kind.js';
import type { PayoutView } from '../../machines/payout/payout-view.js';
import type { z } from 'zod';
import type { listPayoutsQuery } from './payout-schemas.js';
import { cappedTotal, countLimit, type PageTotal } from '../paged-views.js';

export async function listPayouts(
  system: ActorSystem,
  merchantId: string,
  query: z.output<typeof listPayoutsQuery>,
  totalCap: number,
): Promise<{ items: PayoutView[]; page: number; limit: number } & PageTotal> {
  const filter: Record<string, unknown> = { 'view.merchantId': merchantId, 'view.listed': true };
  if (query.status) filter['view.status'] = query.status;
  if (query.customerEmail !== undefined) filter['view.customerEmail'] = query.customerEmail.toLowerCase();
  if (query.merchantReference !== undefined) filter['view.merchantReference'] = query.merchantReference;
  const views = system.views(payoutKind);
  const [rows, counted] = await Promise.all([
    views.find(filter, { sort: { 'view.createdAt': -1, _id: -1 }, skip: (query.page - 1) * query.limit, limit: query.limit, projection: { 'view.payout': 1 } }),
    views.count(filter, countLimit(totalCap)),
  ]);
  return { items: rows.map((row) => row.view.payout!), page: query.page, limit: query.limit, ...cappedTotal(counted, totalCap) };
}
