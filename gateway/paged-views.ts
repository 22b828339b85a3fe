/**
 * One page of a list endpoint, newest first: document 1's paging (1-based `page`,
 * `limit`) over actors' views, the page and the total read side by side. Every merchant
 * list (orders, payments, webhook deliveries) pages so.
 *
 * The total is counted up to a cap and no further (docs/api-conventions.md, "List
 * totals"): a filter matching most of a large store would otherwise hold the event loop
 * for as long as counting every match takes.
 */
import type { ViewCollection, ViewDocument, ViewFilter, ViewFindOptions } from '../actors/runtime/view-collection.js';

export const NEWEST_FIRST = { 'view.createdAt': -1, _id: -1 } as const;

/** The most a list's total counts to; past it the total stops there and says it stopped. */
export const TOTAL_CAP = 10_000;

/** A list's total as answered: the matches counted, and whether counting stopped at the cap. */
export interface PageTotal {
  total: number;
  totalCapped: boolean;
}

/** The count limit that tells a capped total from an exact one: one past the cap. */
export const countLimit = (cap: number) => ({ limit: cap + 1 });

/** `counted` as a count made with `countLimit(cap)` answered it. */
export function cappedTotal(counted: number, cap: number): PageTotal {
  return counted > cap ? { total: cap, totalCapped: true } : { total: counted, totalCapped: false };
}

export async function newestPage<TView>(
  documents: ViewCollection<TView>,
  filter: ViewFilter<TView>,
  { page, limit }: { page: number; limit: number },
  projection: ViewFindOptions<TView>['projection'],
  totalCap: number,
): Promise<{ docs: ViewDocument<TView>[] } & PageTotal> {
  const [docs, counted] = await Promise.all([
    documents.find(filter, { sort: NEWEST_FIRST, skip: (page - 1) * limit, limit, projection }),
    documents.count(filter, countLimit(totalCap)),
  ]);
  return { docs, ...cappedTotal(counted, totalCap) };
}
