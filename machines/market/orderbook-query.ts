/**
 * The orderbook's queries over one snapshot. A snapshot keeps each currency's rows sorted
 * each way a query has asked (sorted once, on first use), so a query is one pass that
 * filters and counts, and every query of one snapshot agrees on the order.
 */
import { compare } from '../money.js';
import type { RankedRow } from './orderbook-rows.js';

export const SORT_FIELDS = ['price', 'available', 'limits', 'apr'] as const;
export type SortField = (typeof SORT_FIELDS)[number];
export type SortDirection = 'asc' | 'desc';

/** Document 3: ascending for price (cheapest first), descending for the others (most first). */
export const DEFAULT_DIRECTION: Readonly<Record<SortField, SortDirection>> = { price: 'asc', available: 'desc', limits: 'desc', apr: 'desc' };

export type SellerReleaseFilter = 'include' | 'exclude' | 'only';

export interface OrderbookQuery {
  currency: string;
  paymentPlatform: string | undefined;
  sortBy: SortField;
  sortDirection: SortDirection;
  chainId: number;
  token: string;
  publicOnly: boolean;
  limit: number;
  offset: number;
  /** USDC base units an intent would take; rows that cannot take it are left out. */
  amount: bigint | null;
  showSmallOrders: boolean;
  hideExtremeSpread: boolean;
  sellerAutomatedRelease: SellerReleaseFilter;
}

export interface OrderbookThresholds {
  /** Rows with less available than this (USDC base units) are dust. */
  dustUsdc: bigint;
  /** Rows whose spread is further than this from the reference rate, either way, are extreme. */
  extremeSpreadBps: bigint;
}

/**
 * Whether a spread (basis points from the reference rate, spreadBpsOf) is beyond `extremeSpreadBps`
 * either way. A spread of null (no reference rate prices the currency) is never extreme: nothing
 * says how far off it is. Checkout quotes skip the same offers (actors/market/deposit-offers.ts).
 */
export function isExtremeSpread(spreadBps: bigint | null, extremeSpreadBps: bigint): boolean {
  return spreadBps !== null && (spreadBps < 0n ? -spreadBps : spreadBps) > extremeSpreadBps;
}

/** One currency's rows, and each order a query has asked for so far, sorted on first use. */
class CurrencyRows {
  readonly #sorted = new Map<string, RankedRow[]>();
  constructor(readonly rows: readonly RankedRow[]) {}

  ordered(field: SortField, direction: SortDirection): RankedRow[] {
    const key = `${field}:${direction}`;
    let sorted = this.#sorted.get(key);
    if (!sorted) this.#sorted.set(key, (sorted = [...this.rows].sort(comparator(field, direction))));
    return sorted;
  }
}

export interface OrderbookSnapshot {
  generatedAt: string;
  chainId: number;
  token: string;
  byCurrency: ReadonlyMap<string, CurrencyRows>;
  depositCount: number;
}

export function snapshotOf(rows: readonly RankedRow[], header: Omit<OrderbookSnapshot, 'byCurrency'>): OrderbookSnapshot {
  const grouped = new Map<string, RankedRow[]>();
  for (const ranked of rows) {
    const group = grouped.get(ranked.facts.currency);
    if (group) group.push(ranked);
    else grouped.set(ranked.facts.currency, [ranked]);
  }
  return { ...header, byCurrency: new Map([...grouped].map(([currency, group]) => [currency, new CurrencyRows(group)])) };
}

/** The field in the direction asked; rows without an APR last either way; then the deepest, then the deposit id, so the order is total. */
function comparator(field: SortField, direction: SortDirection): (a: RankedRow, b: RankedRow) => number {
  const sign = direction === 'asc' ? 1 : -1;
  return (a, b) => {
    const primary = field === 'apr' ? compareNullsLast(a.keys.aprBps, b.keys.aprBps, sign) : sign * compare(keyOf(a, field), keyOf(b, field));
    return (
      primary ||
      compare(b.keys.available, a.keys.available) ||
      compare(BigInt(a.facts.depositIdOnContract), BigInt(b.facts.depositIdOnContract)) ||
      a.facts.paymentPlatform.localeCompare(b.facts.paymentPlatform)
    );
  };
}

function keyOf(ranked: RankedRow, field: Exclude<SortField, 'apr'>): bigint {
  if (field === 'price') return ranked.keys.rate;
  if (field === 'available') return ranked.keys.available;
  return ranked.keys.takeable;
}

function compareNullsLast(a: bigint | null, b: bigint | null, sign: number): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return sign * compare(a, b);
}

/**
 * The page the query asks for and how many rows match in all. Without `count` the pass
 * stops at the page's last row (the list form has no total), and `total` is only a floor.
 */
export function queryOrderbook(
  snapshot: OrderbookSnapshot,
  query: OrderbookQuery,
  thresholds: OrderbookThresholds,
  count = true,
): { rows: RankedRow[]; total: number } {
  const ordered = snapshot.byCurrency.get(query.currency)?.ordered(query.sortBy, query.sortDirection);
  if (!ordered || query.chainId !== snapshot.chainId || query.token.toLowerCase() !== snapshot.token.toLowerCase()) return { rows: [], total: 0 };
  const page: RankedRow[] = [];
  let total = 0;
  for (const ranked of ordered) {
    if (!matches(ranked, query, thresholds)) continue;
    if (total >= query.offset && page.length < query.limit) page.push(ranked);
    total += 1;
    if (!count && page.length === query.limit) break;
  }
  return { rows: page, total };
}

function matches({ facts, keys }: RankedRow, query: OrderbookQuery, thresholds: OrderbookThresholds): boolean {
  if (query.paymentPlatform !== undefined && facts.paymentPlatform !== query.paymentPlatform) return false;
  if (query.publicOnly && facts.isPrivate) return false;
  if (query.amount !== null && (query.amount < keys.intentMin || query.amount > keys.takeable)) return false;
  if (!query.showSmallOrders && (keys.available < thresholds.dustUsdc || keys.takeable < keys.intentMin)) return false;
  if (query.hideExtremeSpread && isExtremeSpread(keys.spreadBps, thresholds.extremeSpreadBps)) return false;
  if (query.sellerAutomatedRelease === 'exclude' && facts.sellerAutomatedReleaseAvailable) return false;
  if (query.sellerAutomatedRelease === 'only' && !facts.sellerAutomatedReleaseAvailable) return false;
  return true;
}
