/**
 * Document 3's maker leaderboard: snapshots of every maker's figures, built from the
 * liquidity book's deposits and the intent ledger's intents, each answered from memory for
 * up to `cacheMs` and then built again on the next request (one build at a time; requests
 * meanwhile share it). Windows are measured against the node's clock at the snapshot's
 * time, so every answer of one snapshot agrees. Each window's board, order and ranks are
 * made the first time a request asks for them (machines/market/leaderboard-snapshot.ts).
 */
import type { Logger } from 'pino';
import { getAddress } from 'viem';
import type { IntentLedger, LiquidityBook } from '../../actors/market/index.js';
import { compare, formatFiat, formatUsdc } from '../../machines/money.js';
import { ApiError } from '../envelope.js';
import {
  windowStart,
  LEADERBOARD_METRICS,
  type BoardEntry,
  type LeaderboardMetric,
  type LeaderboardWindow,
  type SortOrder,
} from '../../machines/market/leaderboard-figures.js';
import { LeaderboardSnapshot } from '../../machines/market/leaderboard-snapshot.js';
import { depositIdOf, isoSeconds, signedUsdc, successRateBps } from '../../machines/market/market-fields.js';
import { SnapshotCache } from './snapshot-cache.js';
import { breakdownsOf, profitSnapshots, type IntentTally } from '../../machines/market/maker-breakdowns.js';

/** How long one snapshot answers: document 3 sets no bound here, so the orderbook's default. */
export const LEADERBOARD_CACHE_MS = 15_000;

export interface LeaderboardSettings {
  /** The chain the makers' deposits are reported under, as the orderbook reports it. */
  chainId: number;
  escrow: string;
  cacheMs: number;
}

export interface LeaderboardDependencies {
  ledger: Pick<IntentLedger, 'all'>;
  liquidity: Pick<LiquidityBook, 'allDeposits'>;
  /** Milliseconds since the epoch, on the node's clock. */
  now(): number;
  logger: Logger;
}

export interface LeaderboardQuery {
  sortBy: LeaderboardMetric;
  sortOrder: SortOrder;
  window: LeaderboardWindow;
  limit: number;
  offset: number;
}

export class Leaderboard {
  readonly #snapshots: SnapshotCache<LeaderboardSnapshot>;

  constructor(
    deps: LeaderboardDependencies,
    readonly settings: LeaderboardSettings,
  ) {
    this.#snapshots = new SnapshotCache({
      build: async (builtAt) => {
        const [deposits, intents] = await Promise.all([deps.liquidity.allDeposits(), deps.ledger.all()]);
        return new LeaderboardSnapshot(builtAt, deposits, intents);
      },
      now: deps.now,
      freshMs: settings.cacheMs,
      staleMs: 0,
      logger: deps.logger,
      what: 'leaderboard',
      unavailable: () => new ApiError(503, 'The leaderboard cannot be read right now; retry shortly', 'LEADERBOARD_UNAVAILABLE'),
    });
  }

  /** One page of makers sorted by the metric, each with its descending rank by it. */
  async page(query: LeaderboardQuery) {
    const snapshot = await this.#snapshot();
    const sorted = snapshot.sorted(query.window, query.sortBy, query.sortOrder);
    const ranks = snapshot.ranks(query.window, query.sortBy);
    const rows = sorted.slice(query.offset, query.offset + query.limit);
    return {
      ...this.#header(snapshot, query.window),
      sortBy: query.sortBy,
      sortOrder: query.sortOrder,
      makers: rows.map((entry) => ({ rank: ranks.get(entry.figures.maker)!, ...this.#row(entry) })),
      pagination: { limit: query.limit, offset: query.offset, total: sorted.length, hasMore: query.offset + rows.length < sorted.length },
    };
  }

  async summary() {
    const snapshot = await this.#snapshot();
    const totals = snapshot.totals;
    return {
      chainId: this.settings.chainId,
      generatedAt: new Date(snapshot.builtAt).toISOString(),
      ...totals,
      totalRealizedProfitUsd: signedUsdc(totals.totalRealizedProfitUsd),
      totalAmountTaken: formatUsdc(totals.totalAmountTaken),
      totalDeposited: formatUsdc(totals.totalDeposited),
    };
  }

  /** The maker's ranks by each metric in the window, or a 404 for a maker the board does not hold. */
  async rank(makerId: string, window: LeaderboardWindow) {
    const snapshot = await this.#snapshot();
    const entry = snapshot.entry(window, this.#makerOf(makerId));
    if (!entry) throw makerNotFound(makerId);
    return {
      makerId: this.#idOf(entry.figures.maker),
      ...this.#header(snapshot, window),
      totalMakers: snapshot.figures.size,
      ranks: this.#ranksOf(snapshot, window, entry),
      maker: this.#row(entry),
    };
  }

  /** The maker's lifetime row and ranks, its deposits, breakdowns by platform and currency, and its last days' profit. */
  async detail(makerId: string) {
    const snapshot = await this.#snapshot();
    const maker = this.#makerOf(makerId);
    const entry = snapshot.entry('lifetime', maker);
    if (!entry) throw makerNotFound(makerId);
    const { platforms, currencies } = breakdownsOf(snapshot.intents.filter((record) => record.maker === maker));
    return {
      makerId: this.#idOf(maker),
      chainId: this.settings.chainId,
      generatedAt: new Date(snapshot.builtAt).toISOString(),
      maker: this.#row(entry),
      ranks: this.#ranksOf(snapshot, 'lifetime', entry),
      platforms: platforms.map(({ paymentMethodHash, paymentPlatform, ...tally }) => ({ paymentMethodHash, paymentPlatform, ...tallyText(tally) })),
      currencies: currencies.map(({ currencyCode, currency, ...tally }) => ({
        currencyCode,
        currency,
        ...tallyText(tally),
        fiatAmount: formatFiat(tally.fiatCents),
      })),
      profitSnapshots: profitSnapshots(entry.figures.fills, snapshot.now).map((day) => ({
        date: day.date,
        fulfilments: day.fulfilments,
        totalAmountTaken: formatUsdc(day.totalAmountTaken),
        realizedProfitUsd: signedUsdc(day.realizedProfitUsd),
        cumulativeRealizedProfitUsd: signedUsdc(day.cumulativeRealizedProfitUsd),
      })),
      deposits: snapshot.deposits
        .filter((deposit) => deposit.depositor.toLowerCase() === maker)
        .sort((a, b) => compareIds(a._id, b._id))
        .map((deposit) => ({
          depositId: depositIdOf(this.settings.chainId, this.settings.escrow, deposit._id),
          depositIdOnContract: deposit._id,
          escrowAddress: this.settings.escrow,
          totalDeposited: formatUsdc(BigInt(deposit.totalDeposited)),
          totalAmountTaken: formatUsdc(BigInt(deposit.totalTaken)),
          availableLiquidity: formatUsdc(deposit.closed ? 0n : BigInt(deposit.available)),
          closed: deposit.closed,
          intentsSignaled: deposit.intentsSignaled,
          intentsFulfilled: deposit.intentsFulfilled,
          successRateBps: successRateBps(deposit),
          createdAt: isoSeconds(deposit.createdAt),
        })),
    };
  }

  #header(snapshot: LeaderboardSnapshot, window: LeaderboardWindow) {
    const start = windowStart(window, snapshot.now);
    return {
      chainId: this.settings.chainId,
      window,
      windowStart: start === null ? null : isoSeconds(start),
      generatedAt: new Date(snapshot.builtAt).toISOString(),
    };
  }

  #ranksOf(snapshot: LeaderboardSnapshot, window: LeaderboardWindow, entry: BoardEntry): Record<LeaderboardMetric, number> {
    return Object.fromEntries(LEADERBOARD_METRICS.map((metric) => [metric, snapshot.ranks(window, metric).get(entry.figures.maker)!])) as Record<
      LeaderboardMetric,
      number
    >;
  }

  #row(entry: BoardEntry) {
    const { figures } = entry;
    const last = figures.fills.at(-1);
    return {
      makerId: this.#idOf(figures.maker),
      chainId: this.settings.chainId,
      makerAddress: getAddress(figures.maker),
      realizedProfitUsd: signedUsdc(entry.realizedProfitUsd),
      totalAmountTaken: formatUsdc(entry.totalAmountTaken),
      totalDeposited: formatUsdc(figures.totalDeposited),
      availableLiquidity: formatUsdc(figures.availableLiquidity),
      depositCount: figures.depositCount,
      activeDepositCount: figures.activeDepositCount,
      intentsSignaled: figures.intentsSignaled,
      intentsFulfilled: figures.intentsFulfilled,
      successRateBps: successRateBps(figures),
      firstDepositAt: figures.firstDepositAt === null ? null : isoSeconds(figures.firstDepositAt),
      lastFulfilledAt: last ? isoSeconds(last.fulfilledAt) : null,
    };
  }

  #idOf(maker: string): string {
    return `${this.settings.chainId}_${maker}`;
  }

  /** The maker's lower-case address; one of another chain is nobody on this board. */
  #makerOf(makerId: string): string {
    const [chainId, address] = makerId.split('_') as [string, string];
    return chainId === String(this.settings.chainId) ? address.toLowerCase() : '';
  }

  #snapshot(): Promise<LeaderboardSnapshot> {
    return this.#snapshots.get();
  }
}

function makerNotFound(makerId: string): ApiError {
  return new ApiError(404, `No maker ${makerId} on this leaderboard`, 'MAKER_NOT_FOUND');
}

/** The leaderboard on a node that reads no chain: there are no makers to rank. */
export function noLeaderboard(): ApiError {
  return new ApiError(503, 'This node reads no chain, so it has no leaderboard', 'LEADERBOARD_UNAVAILABLE');
}

function tallyText(tally: Omit<IntentTally, 'fiatCents'>) {
  return {
    intentsSignaled: tally.intentsSignaled,
    intentsFulfilled: tally.intentsFulfilled,
    intentsPruned: tally.intentsPruned,
    totalAmountTaken: formatUsdc(tally.totalAmountTaken),
    realizedProfitUsd: signedUsdc(tally.realizedProfitUsd),
  };
}

function compareIds(a: string, b: string): number {
  return compare(BigInt(a), BigInt(b));
}
