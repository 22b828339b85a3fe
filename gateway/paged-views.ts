/**
 * One page of a list endpoint, newest first: document 1's paging (1-based `page`,
 * `limit`) over actors' views, the page and the total read side by side. Every merchant
 * list (orders, payments, webhook deliveries) pages so.
 */
import type { ViewCollection, ViewDocument, ViewFilter, ViewFindOptions } from '../actors/runtime/view-collection.js';

export const NEWEST_FIRST = { 'view.createdAt': -1, _id: -1 } as const;

export async function newestPage<TView>(
  documents: ViewCollection<TView>,
  filter: ViewFilter<TView>,
  { page, limit }: { page: number; limit: number },
  projection: ViewFindOptions<TView>['projection'],
): Promise<{ docs: ViewDocument<TView>[]; total: number }> {
  const [docs, total] = await Promise.all([
    documents.find(filter, { sort: NEWEST_FIRST, skip: (page - 1) * limit, limit, projection }),
    documents.count(filter),
  ]);
  return { docs, total };
}
