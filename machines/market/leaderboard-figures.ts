/**
 * The leaderboard's arithmetic (document 3), in bigint over plain documents: each maker's
 * figures from the liquidity book's deposits and the intent ledger's fulfilments, the
 * window-scoped sums, the order and the ranks. The rules, each written once in
 * docs/leaderboard.md:
 *
 * - a maker is a depositor of the escrow: every deposit it made, closed ones included, and
 *   every intent on them count for it;
 * - liquidity is gross deposited: what its deposits ever took in (first amounts and top-ups);
 * - volume (`totalAmountTaken`) is the USDC its fulfilments released, fees included;
 * - profit (`realizedProfitUsd`) is the sum of its fulfilments' realised profit, each priced
 *   at the reference rate recorded with it (actors/market/intent-records.ts); a fulfilment
 *   in a currency without a reference counts 0;
 * - a window other than lifetime keeps the fulfilments of its last 7, 30 or 90 days by the
 *   node's clock, for volume and profit only: liquidity, success rate and counts are lifetime;
 * - ranks are descending and shared by equals (1, 2, 2, 4): one plus how many makers have more.
 */
import type { IntentRecordDoc, LiquidityDepositDoc } from './market-records.js';
import { compare } from '../money.js';
import { DAY_SECONDS, successRateBps } from './market-fields.js';

export const LEADERBOARD_WINDOWS = ['lifetime', '7d', '30d', '90d'] as const;
export type LeaderboardWindow = (typeof LEADERBOARD_WINDOWS)[number];
export const LEADERBOARD_METRICS = ['profit', 'volume', 'liquidity'] as const;
export type LeaderboardMetric = (typeof LEADERBOARD_METRICS)[number];
export type SortOrder = 'asc' | 'desc';

const WINDOW_DAYS: Readonly<Record<Exclude<LeaderboardWindow, 'lifetime'>, number>> = { '7d': 7, '30d': 30, '90d': 90 };

/** One fulfilment as the figures count it. */
export interface Fill {
  /** Block time, Unix seconds. */
  fulfilledAt: number;
  released: bigint;
  /** 0 when the fulfilment has no reference rate. */
  profit: bigint;
}

/** A maker's lifetime figures and its fulfilments, oldest first. */
export interface MakerFigures {
  /** Lower-case address. */
  maker: string;
  totalDeposited: bigint;
  /** What its open deposits can still sell. */
  availableLiquidity: bigint;
  depositCount: number;
  activeDepositCount: number;
  intentsSignaled: number;
  intentsFulfilled: number;
  /** Unix seconds; null when the book holds none of its deposits yet. */
  firstDepositAt: number | null;
  fills: Fill[];
}

/** A maker's figures for one window. */
export interface BoardEntry {
  figures: MakerFigures;
  totalAmountTaken: bigint;
  realizedProfitUsd: bigint;
}

/** A ledger record's fulfilment as the figures count it; null for an intent not fulfilled. */
export function fillOf(record: IntentRecordDoc): Fill | null {
  if (record.status !== 'FULFILLED' || record.fulfilledAt === null) return null;
  return {
    fulfilledAt: record.fulfilledAt,
    released: BigInt(record.released),
    profit: record.realizedProfitUsd === null ? 0n : BigInt(record.realizedProfitUsd),
  };
}

/** Every maker with a deposit in the book or an intent in the ledger, in no order. */
export function makerFigures(deposits: readonly LiquidityDepositDoc[], intents: readonly IntentRecordDoc[]): MakerFigures[] {
  const makers = new Map<string, MakerFigures>();
  const of = (maker: string) => {
    const key = maker.toLowerCase();
    let figures = makers.get(key);
    if (!figures) {
      figures = {
        maker: key,
        totalDeposited: 0n,
        availableLiquidity: 0n,
        depositCount: 0,
        activeDepositCount: 0,
        intentsSignaled: 0,
        intentsFulfilled: 0,
        firstDepositAt: null,
        fills: [],
      };
      makers.set(key, figures);
    }
    return figures;
  };
  for (const deposit of deposits) {
    const figures = of(deposit.depositor);
    figures.totalDeposited += BigInt(deposit.totalDeposited);
    figures.depositCount += 1;
    if (!deposit.closed) {
      figures.activeDepositCount += 1;
      figures.availableLiquidity += BigInt(deposit.available);
    }
    figures.intentsSignaled += deposit.intentsSignaled;
    figures.intentsFulfilled += deposit.intentsFulfilled;
    if (figures.firstDepositAt === null || deposit.createdAt < figures.firstDepositAt) figures.firstDepositAt = deposit.createdAt;
  }
  for (const record of intents) {
    const fill = fillOf(record);
    if (fill) of(record.maker).fills.push(fill);
  }
  for (const figures of makers.values()) figures.fills.sort((a, b) => a.fulfilledAt - b.fulfilledAt);
  return [...makers.values()];
}

/** The first second a window counts fulfilments from; null for lifetime. `now` is Unix seconds. */
export function windowStart(window: LeaderboardWindow, now: number): number | null {
  return window === 'lifetime' ? null : now - WINDOW_DAYS[window] * DAY_SECONDS;
}

/**
 * Each maker's entry for a window: volume and profit of the fulfilments at or after its
 * start. A fulfilment whose block time is ahead of the node's clock counts in every window.
 */
export function boardOf(makers: readonly MakerFigures[], window: LeaderboardWindow, now: number): BoardEntry[] {
  const start = windowStart(window, now);
  return makers.map((figures) => {
    let totalAmountTaken = 0n;
    let realizedProfitUsd = 0n;
    for (const fill of figures.fills) {
      if (start !== null && fill.fulfilledAt < start) continue;
      totalAmountTaken += fill.released;
      realizedProfitUsd += fill.profit;
    }
    return { figures, totalAmountTaken, realizedProfitUsd };
  });
}

function metricOf(entry: BoardEntry, metric: LeaderboardMetric): bigint {
  if (metric === 'profit') return entry.realizedProfitUsd;
  if (metric === 'volume') return entry.totalAmountTaken;
  return entry.figures.totalDeposited;
}

/** The entries by `metric` in `order`; equals by maker address, ascending either way, so the order is total. */
export function sortBoard(entries: readonly BoardEntry[], metric: LeaderboardMetric, order: SortOrder): BoardEntry[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...entries].sort(
    (a, b) => sign * compare(metricOf(a, metric), metricOf(b, metric)) || (a.figures.maker < b.figures.maker ? -1 : a.figures.maker > b.figures.maker ? 1 : 0),
  );
}

/** Each maker's descending rank by `metric`: one plus how many makers have strictly more. */
export function ranksOf(entries: readonly BoardEntry[], metric: LeaderboardMetric): Map<string, number> {
  const ranks = new Map<string, number>();
  const sorted = sortBoard(entries, metric, 'desc');
  sorted.forEach((entry, index) => {
    const previous = sorted[index - 1];
    const shared = previous !== undefined && metricOf(previous, metric) === metricOf(entry, metric);
    ranks.set(entry.figures.maker, shared ? ranks.get(previous.figures.maker)! : index + 1);
  });
  return ranks;
}

export interface LeaderboardTotals {
  totalMakers: number;
  totalRealizedProfitUsd: bigint;
  totalAmountTaken: bigint;
  totalDeposited: bigint;
  totalDeposits: number;
  activeDeposits: number;
  totalIntentsSignaled: number;
  totalIntentsFulfilled: number;
  /** The makers with at least one intent signalled: a success rate means nothing before that. */
  makersWithIntents: number;
  /** The mean of those makers' success rates, rounded down; 0 when there are none. */
  averageSuccessRateBps: number;
}

/** The lifetime sums over every maker. */
export function totalsOf(makers: readonly MakerFigures[]): LeaderboardTotals {
  const totals: LeaderboardTotals = {
    totalMakers: makers.length,
    totalRealizedProfitUsd: 0n,
    totalAmountTaken: 0n,
    totalDeposited: 0n,
    totalDeposits: 0,
    activeDeposits: 0,
    totalIntentsSignaled: 0,
    totalIntentsFulfilled: 0,
    makersWithIntents: 0,
    averageSuccessRateBps: 0,
  };
  let rates = 0;
  for (const figures of makers) {
    for (const fill of figures.fills) {
      totals.totalAmountTaken += fill.released;
      totals.totalRealizedProfitUsd += fill.profit;
    }
    totals.totalDeposited += figures.totalDeposited;
    totals.totalDeposits += figures.depositCount;
    totals.activeDeposits += figures.activeDepositCount;
    totals.totalIntentsSignaled += figures.intentsSignaled;
    totals.totalIntentsFulfilled += figures.intentsFulfilled;
    if (figures.intentsSignaled > 0) {
      totals.makersWithIntents += 1;
      rates += successRateBps(figures);
    }
  }
  totals.averageSuccessRateBps = totals.makersWithIntents === 0 ? 0 : Math.floor(rates / totals.makersWithIntents);
  return totals;
}
