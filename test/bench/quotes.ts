/**
 * The customer's quotes (GET /api/v1/checkout/orders/{orderId}/quotes, with the order token)
 * with 1,000 makers' deposits in the liquidity book, beside the same requests with 10, on
 * the same node in the same run.
 *
 * The node is the embedded default in a process of its own (payments-node.ts: a fresh
 * anvil, the indexer, the liquidity book following it). The deposits are real: made on its
 * chain by makers with keys of their own (quotes-book.ts), read by the indexer and taken
 * into the book, their payees registered. The book starts with the eight deposits of the
 * seeded makers; two more make the baseline's 10, measured first (after a warm-up); then
 * 990 more from 40 makers make 1,000 and the same requests run again.
 *
 * Two requests for one live order of 25 USDC, whose merchant takes every fiat rail: the
 * hosted page's (`/quotes`: the best offer on each rail, in its home currency) and one
 * rail in depth (`/quotes?rail=venmo&quoteLimit=10`). Each one request at a time (node:http,
 * for latency in fractions of a ms) and at 16 connections (autocannon), BENCH_SECONDS each,
 * both from this process.
 */
import autocannon from 'autocannon';
import { addDeposits, bookNow, seeded } from './quotes-book.js';
import { liveMerchant, oneAtATime, placeOrder, startPaymentsNode, type HttpLatency, type PaymentsNode } from './payments-support.js';

export interface QuoteRow {
  query: string;
  deposits: number;
  /** Offers in one answer. */
  quotes: number;
  /** One request at a time. */
  single: HttpLatency;
  /** CONNECTIONS connections, autocannon. */
  loaded: { perSecond: number; p50Ms: number; p99Ms: number };
}

const QUERIES = ['/quotes', '/quotes?rail=venmo&quoteLimit=10'];
const CONNECTIONS = 16;
const BASELINE_DEPOSITS = 10;
const WARM_UP_SECONDS = 2;

export interface QuotesBench {
  rows: QuoteRow[];
  build: Awaited<ReturnType<typeof addDeposits>>;
}

export async function quotesBenchmark(seconds: number, deposits = 1_000): Promise<QuotesBench> {
  if (deposits <= BASELINE_DEPOSITS) throw new RangeError(`BENCH_DEPOSITS must be above the baseline's ${BASELINE_DEPOSITS}, not ${deposits}`);
  const random = seeded(20261124);
  let node: PaymentsNode | undefined;
  try {
    node = await startPaymentsNode();
    const key = await liveMerchant(node);
    const order = await placeOrder(node, key, { requestedUsdcAmount: '25' });
    const seededCount = await bookNow(node);
    const n = node;
    const rows: QuoteRow[] = [];
    const measure = async (expected: number) => {
      for (const query of QUERIES) {
        const url = `${n.url}/api/v1/checkout/orders/${order.id}${query}`;
        const headers = { authorization: `Bearer ${order.token}` };
        const answer = (await (await fetch(url, { headers })).json()) as { responseObject: { platforms: unknown[] } };
        const single = await oneAtATime(url, headers, seconds);
        const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: seconds });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${query}: ${result.non2xx} non-2xx and ${result.errors} errors`);
        const loaded = { perSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
        rows.push({ query, deposits: expected, quotes: answer.responseObject.platforms.length, single, loaded });
      }
    };

    const held = (await addDeposits(node, BASELINE_DEPOSITS - seededCount, 2, random)).deposits;
    if (held !== BASELINE_DEPOSITS) throw new Error(`the book holds ${held} deposits, not ${BASELINE_DEPOSITS}`);
    // Cold code is not counted.
    for (const query of QUERIES) {
      await autocannon({
        url: `${node.url}/api/v1/checkout/orders/${order.id}${query}`,
        headers: { authorization: `Bearer ${order.token}` },
        connections: CONNECTIONS,
        duration: WARM_UP_SECONDS,
      });
    }
    await measure(held);

    const build = await addDeposits(node, deposits - held, 40, random);
    if (build.deposits !== deposits) throw new Error(`the book holds ${build.deposits} deposits, not ${deposits}`);
    await measure(build.deposits);
    return { rows, build };
  } catch (error) {
    if (node) throw new Error(`${(error as Error).message}\nthe node's last log lines:\n${node.logTail()}`, { cause: error });
    throw error;
  } finally {
    await node?.stop();
  }
}

export function formatQuotes({ rows, build }: QuotesBench): string {
  const big = Math.max(...rows.map((row) => row.deposits));
  const fmt = (value: number, digits: number) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const lines = [
    `### Customer quotes over HTTP with ${fmt(big, 0)} deposits in the liquidity book (baseline: the same requests with ${BASELINE_DEPOSITS} deposits)`,
    '',
    `The ${fmt(big - BASELINE_DEPOSITS, 0)} deposits: ${fmt(build.transactions, 0)} transactions mined in ${build.chainSeconds.toFixed(1)} s, then ${build.bookSeconds.toFixed(1)} s more until the book had taken the last fact.`,
    `One request at a time (node:http, fractions of a ms), then ${CONNECTIONS} connections (autocannon, whole ms).`,
    '',
    `| query | deposits | offers answered | 1 at a time req/s | p50 ms | p99 ms | ${CONNECTIONS} conn. req/s | p50 ms | p99 ms | p50 vs 10, 1 at a time | p99 vs 10, 1 at a time | req/s vs 10, ${CONNECTIONS} conn. |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const base = rows.find((candidate) => candidate.query === row.query)!;
    lines.push(
      `| ${row.query} | ${fmt(row.deposits, 0)} | ${row.quotes} | ${fmt(row.single.perSecond, 0)} | ${fmt(row.single.p50Ms, 2)} | ${fmt(row.single.p99Ms, 2)} | ${fmt(row.loaded.perSecond, 0)} | ${row.loaded.p50Ms} | ${row.loaded.p99Ms} | ${fmt(row.single.p50Ms / base.single.p50Ms, 2)} | ${fmt(row.single.p99Ms / base.single.p99Ms, 2)} | ${fmt(row.loaded.perSecond / base.loaded.perSecond, 2)} |`,
    );
  }
  return lines.join('\n');
}
