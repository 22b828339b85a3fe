/**
 * The public orderbook: snapshots of the liquidity book's open deposits as orderbook rows,
 * each answered from memory for up to `cacheMs` (document 3 lets a response reflect data up
 * to 60 seconds old). The first request after that builds the next snapshot; while it is
 * being built, requests keep the current one unless it is older than the document allows,
 * so a slow store or rate source delays freshness, never an answer within the bound. A
 * snapshot is read by actors/market/orderbook-snapshot.ts.
 */
import type { Logger } from 'pino';
import { readOrderbookSnapshot, type OrderbookSources } from '../../actors/market/index.js';
import { ApiError, type Rendered } from '../envelope.js';
import { SnapshotCache } from './snapshot-cache.js';
import { queryOrderbook, type OrderbookQuery, type OrderbookSnapshot, type OrderbookThresholds } from '../../machines/market/orderbook-query.js';

/** Document 3: a response may reflect data up to 60 seconds old, and no older. */
export const ORDERBOOK_MAX_AGE_MS = 60_000;

/** Answers kept rendered per snapshot: the queries clients repeat (a page's default view) cost a lookup. */
const RENDERED_ANSWERS = 256;

export interface OrderbookSettings {
  /** The chain and token the book's deposits are reported under (Base and its USDC, for a local chain standing in for it). */
  chainId: number;
  token: string;
  escrow: string;
  feeBps: number;
  cacheMs: number;
  thresholds: OrderbookThresholds;
}

export interface OrderbookDependencies extends OrderbookSources {
  /** Milliseconds since the epoch, on the node's clock. */
  now(): number;
  logger: Logger;
}

export class Orderbook {
  readonly #snapshots: SnapshotCache<OrderbookSnapshot>;
  #answers = new Map<string, Rendered>();
  #answersOf: OrderbookSnapshot | null = null;

  constructor(
    deps: OrderbookDependencies,
    readonly settings: OrderbookSettings,
  ) {
    this.#snapshots = new SnapshotCache({
      build: (builtAt) => readOrderbookSnapshot(deps, settings, builtAt),
      now: deps.now,
      freshMs: settings.cacheMs,
      staleMs: ORDERBOOK_MAX_AGE_MS,
      logger: deps.logger,
      what: 'orderbook',
      unavailable: () => new ApiError(503, 'The orderbook cannot be read right now; retry shortly', 'ORDERBOOK_UNAVAILABLE'),
    });
  }

  /**
   * The answer to `query` from the current snapshot, rendered by `render` the first time
   * that snapshot is asked it (`form` tells the list from the table, which alone counts
   * every match) and kept until the next.
   */
  async answer(
    form: 'list' | 'table',
    query: OrderbookQuery,
    render: (snapshot: OrderbookSnapshot, result: ReturnType<typeof queryOrderbook>) => Rendered,
  ): Promise<Rendered> {
    const snapshot = await this.snapshot();
    if (this.#answersOf !== snapshot) [this.#answers, this.#answersOf] = [new Map(), snapshot];
    const key = `${form}:${JSON.stringify(query, (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}`;
    const kept = this.#answers.get(key);
    if (kept) return kept;
    // Only the table reports a total: the list's page is done at its last row.
    const answer = render(snapshot, queryOrderbook(snapshot, query, this.settings.thresholds, form === 'table'));
    if (this.#answers.size >= RENDERED_ANSWERS) this.#answers.delete(this.#answers.keys().next().value!);
    this.#answers.set(key, answer);
    return answer;
  }

  snapshot(): Promise<OrderbookSnapshot> {
    return this.#snapshots.get();
  }
}

/** The orderbook on a node that reads no chain: there are no deposits to list. */
export function noOrderbook(): ApiError {
  return new ApiError(503, 'This node reads no chain, so it has no orderbook', 'ORDERBOOK_UNAVAILABLE');
}
