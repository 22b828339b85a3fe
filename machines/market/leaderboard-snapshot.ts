/**
 * One snapshot of the leaderboard: every maker's figures from the deposits and intents
 * read at one time. Windows are measured against the snapshot's time, so every answer of one
 * snapshot agrees; each window's board, order and ranks are made the first time a query asks.
 */
import {
  boardOf,
  makerFigures,
  ranksOf,
  sortBoard,
  totalsOf,
  type BoardEntry,
  type LeaderboardMetric,
  type LeaderboardTotals,
  type LeaderboardWindow,
  type MakerFigures,
  type SortOrder,
} from './leaderboard-figures.js';
import type { IntentRecordDoc, LiquidityDepositDoc } from './market-records.js';

/** One snapshot of the leaderboard's records, and what queries have made of it so far. */
export class LeaderboardSnapshot {
  readonly #boards = new Map<LeaderboardWindow, BoardEntry[]>();
  readonly #sorted = new Map<string, BoardEntry[]>();
  readonly #ranks = new Map<string, Map<string, number>>();
  readonly figures: ReadonlyMap<string, MakerFigures>;
  readonly totals: LeaderboardTotals;

  constructor(
    /** Milliseconds since the epoch. */
    readonly builtAt: number,
    readonly deposits: readonly LiquidityDepositDoc[],
    readonly intents: readonly IntentRecordDoc[],
  ) {
    const makers = makerFigures(deposits, intents);
    this.figures = new Map(makers.map((figures) => [figures.maker, figures]));
    this.totals = totalsOf(makers);
  }

  get now(): number {
    return Math.floor(this.builtAt / 1000);
  }

  board(window: LeaderboardWindow): BoardEntry[] {
    let board = this.#boards.get(window);
    if (!board) this.#boards.set(window, (board = boardOf([...this.figures.values()], window, this.now)));
    return board;
  }

  sorted(window: LeaderboardWindow, metric: LeaderboardMetric, order: SortOrder): BoardEntry[] {
    const key = `${window}:${metric}:${order}`;
    let sorted = this.#sorted.get(key);
    if (!sorted) this.#sorted.set(key, (sorted = sortBoard(this.board(window), metric, order)));
    return sorted;
  }

  ranks(window: LeaderboardWindow, metric: LeaderboardMetric): Map<string, number> {
    const key = `${window}:${metric}`;
    let ranks = this.#ranks.get(key);
    if (!ranks) this.#ranks.set(key, (ranks = ranksOf(this.board(window), metric)));
    return ranks;
  }

  entry(window: LeaderboardWindow, maker: string): BoardEntry | undefined {
    return this.board(window).find((entry) => entry.figures.maker === maker);
  }
}
