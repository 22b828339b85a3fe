/**
 * The public orderbook at 10,000 deposits beside the same queries at 100, on one embedded
 * node with its local chain, in the same run. The deposits are written straight into the
 * liquidity book's collection, which is what the indexer would leave there for that many
 * makers (building them on chain is the quotes benchmark's job); the book is then read
 * through HTTP as a client reads it. Each query is answered from the snapshot (the node's
 * ORDERBOOK_CACHE_MS is the document's 60 s): the same query again from its rendered
 * answer, and a query with another amount each time filtered and rendered afresh. The
 * time to build a snapshot is measured apart, as the first answer after the clock passes
 * the cache, which has to wait for it.
 */
import autocannon from 'autocannon';
import { keccak256, toBytes, type Hex } from 'viem';
import type { LiquidityDepositDoc } from '../../actors/market/deposit-offers.js';
import { startTestGateway } from '../support/gateway.js';
import { seeded } from './quotes-book.js';

const CONNECTIONS = 16;
const SIZES = [100, 10_000] as const;
const PLATFORMS = ['venmo', 'cashapp', 'zelle-chase', 'zelle-bofa', 'paypal', 'wise', 'revolut', 'monzo', 'chime'];
const CURRENCIES: Array<[code: string, reference: number]> = [
  ['USD', 1],
  ['EUR', 0.92],
  ['GBP', 0.79],
];
const QUERIES = [
  '/v2/orderbook?currency=USD',
  '/v2/orderbook?currency=USD&sortBy=apr&amount=25000000',
  '/v2/orderbook/table?currency=USD&paymentPlatform=venmo&limit=50&offset=50',
];

const COLD_QUERY = '/v2/orderbook?currency=USD&limit=50&amount=';

export interface OrderbookRow {
  query: string;
  deposits: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface OrderbookBench {
  rows: OrderbookRow[];
  /** Milliseconds to build a snapshot, by deposit count. */
  buildMs: Record<number, number>;
}

const hash = (text: string): Hex => keccak256(toBytes(text)).toLowerCase() as Hex;

/** `count` open deposits from a seeded generator: one or two methods each, one to three currencies, floors from 1 % under to 25 % over the reference. */
function deposits(count: number, firstId: number): LiquidityDepositDoc[] {
  const random = seeded(17 + firstId);
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: count }, (_, i) => {
    const id = String(firstId + i);
    const amount = BigInt(Math.floor(50 + random() * 10_000)) * 1_000_000n;
    const methods = Array.from({ length: 1 + Math.floor(random() * 2) }, (_, m) => ({
      paymentMethod: hash(PLATFORMS[Math.floor(random() * PLATFORMS.length)]!),
      payeeDetails: hash(`payee-${id}-${m}`),
      currencies: CURRENCIES.slice(0, 1 + Math.floor(random() * 3)).map(([code, reference]) => ({
        currency: hash(code),
        minConversionRate: (BigInt(Math.round(reference * (0.99 + random() * 0.26) * 1e6)) * 10n ** 12n).toString(),
      })),
    }));
    const signaled = Math.floor(random() * 50);
    return {
      _id: id,
      depositor: `0x${(firstId + i).toString(16).padStart(40, '0')}`,
      token: '0x0000000000000000000000000000000000000001',
      available: amount.toString(),
      locked: '0',
      intentMin: '1000000',
      intentMax: (amount / 2n).toString(),
      closed: false,
      isPrivate: random() < 0.1,
      sellerAutomatedRelease: random() < 0.3,
      disputeProtection: false,
      methods,
      rateManager: null,
      intentsSignaled: signaled,
      intentsFulfilled: Math.floor(signaled * random()),
      totalDeposited: (amount * 2n).toString(),
      totalTaken: (amount / 3n).toString(),
      createdAt: now - Math.floor(random() * 200 * 86_400),
      chainUpdatedAt: now,
      offers: methods.flatMap((method) => method.currencies.map((c) => `${method.paymentMethod}:${c.currency}`)),
      asOfSequence: 1,
      updatedAt: Date.now(),
    } satisfies LiquidityDepositDoc;
  });
}

export async function orderbookBenchmark(seconds: number): Promise<OrderbookBench> {
  const gateway = await startTestGateway({ INDEXER_ENABLED: true, LOCAL_MAKERS: false, ORDERBOOK_CACHE_MS: 60_000, RATE_LIMIT_PER_MINUTE: 1_000_000 });
  const rows: OrderbookRow[] = [];
  const buildMs: Record<number, number> = {};
  try {
    const book = await gateway.node.store.collection<LiquidityDepositDoc>({ name: 'liquidity_deposits', indexes: [] });
    let held = 0;
    for (const size of SIZES) {
      for (const doc of deposits(size - held, held + 1)) await book.insertOne(doc);
      held = size;
      // Past the document's 60 s, the next answer waits for a new snapshot: that answer's time is the build's.
      await gateway.clock.advance(61_000);
      const started = performance.now();
      const first = await gateway.request('GET', QUERIES[0]!);
      buildMs[size] = performance.now() - started;
      if (first.status !== 200 || first.body.responseObject.entries.length === 0)
        throw new Error(`orderbook at ${size}: ${first.status} ${JSON.stringify(first.body).slice(0, 200)}`);
      for (const query of QUERIES) {
        const result = await autocannon({ url: `${gateway.node.url}${query}`, connections: CONNECTIONS, duration: seconds });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`orderbook ${query}: ${result.non2xx} non-2xx and ${result.errors} errors`);
        rows.push({ query, deposits: size, perSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 });
      }
      // Another amount each time: no answer kept, each one filtered and rendered from the snapshot.
      let amount = 1_000_000;
      const cold = await autocannon({
        url: gateway.node.url,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [{ setupRequest: (request) => ({ ...request, path: `${COLD_QUERY}${amount++}` }) }],
      });
      if (cold.non2xx > 0 || cold.errors > 0) throw new Error(`orderbook cold: ${cold.non2xx} non-2xx and ${cold.errors} errors`);
      rows.push({
        query: `${COLD_QUERY}<another each time>`,
        deposits: size,
        perSecond: cold.requests.average,
        p50Ms: cold.latency.p50,
        p99Ms: cold.latency.p99,
      });
    }
  } finally {
    await gateway.stop();
  }
  return { rows, buildMs };
}

export function formatOrderbook({ rows, buildMs }: OrderbookBench): string {
  const [small, big] = SIZES;
  const lines = [
    `### Orderbook from its snapshot: ${big.toLocaleString('en-US')} deposits beside ${small} (${CONNECTIONS} connections)`,
    '',
    '| query | deposits | req/s | p50 ms | p99 ms | throughput ratio | p99 ratio |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const query of [...QUERIES, `${COLD_QUERY}<another each time>`]) {
    const base = rows.find((row) => row.query === query && row.deposits === small)!;
    for (const row of rows.filter((each) => each.query === query)) {
      lines.push(
        `| \`${query}\` | ${row.deposits} | ${row.perSecond.toFixed(0)} | ${row.p50Ms} | ${row.p99Ms} | ${(row.perSecond / base.perSecond).toFixed(3)} | ${(row.p99Ms / base.p99Ms).toFixed(2)} |`,
      );
    }
  }
  lines.push('', `Snapshot build (the first answer after the cache): ${SIZES.map((size) => `${buildMs[size]!.toFixed(1)} ms at ${size}`).join(', ')}.`);
  return lines.join('\n');
}
