/**
 * One page of a list endpoint, newest first: document 1's paging (1-based `page`,
 * `limit`) over actors' views, the page and the total read side by side. Every merchant
 * list (orders, payments, webhook deliveries) pages so.
 */
import type { ActorDocument } from '../actors/runtime/actor-document.js';
import type { Collection, Filter, Projection } from '../actors/store/store.js';

export const NEWEST_FIRST = { 'view.createdAt': -1, _id: -1 } as const;

export async function newestPage(
  documents: Collection<ActorDocument>,
  filter: Filter,
  { page, limit }: { page: number; limit: number },
  projection: Projection,
): Promise<{ docs: ActorDocument[]; total: number }> {
  const [docs, total] = await Promise.all([
    documents.find(filter, { sort: NEWEST_FIRST, skip: (page - 1) * limit, limit, projection }),
    documents.count(filter),
  ]);
  return { docs, total };
}
