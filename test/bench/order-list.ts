/**
 * The merchant's order list for a merchant with 100,000 orders beside one with 100,
 * on the same embedded node in the same run: with the ordered indexes, the big
 * merchant's first page should cost what the small one's does, and with the trigram
 * index so should a search for one invoice. Orders are made through the API once,
 * then copied straight into the store, which is what 100,000 creates would leave there.
 */
import autocannon from 'autocannon';
import type { ActorDocument } from '../../actors/index.js';
import { viewGrams } from '../../actors/kinds/search-grams.js';
import { startTestGateway } from '../support/gateway.js';

export interface ListRow {
  query: string;
  orders: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const CONNECTIONS = 16;
/** Every order has its own invoice number in its notes; copy i has invoice(i), so both merchants have one of each number below 100. */
const invoice = (i: number) => `inv-${String(i).padStart(6, '0')}`;

export async function orderListBenchmark(seconds: number, bigOrders = 100_000, smallOrders = 100): Promise<ListRow[]> {
  const gateway = await startTestGateway({ RATE_LIMIT_PER_MINUTE: 1_000_000 });
  const rows: ListRow[] = [];
  try {
    const big = await gateway.createMerchant();
    const small = await gateway.createMerchant({ name: 'Small', tier: 'BASE', evmWalletAddress: '0x2222222222222222222222222222222222222222' });
    const orders = gateway.node.system.documents('order');
    const templates: Array<[ActorDocument, number]> = [];
    for (const [merchant, count] of [
      [big, bigOrders],
      [small, smallOrders],
    ] as const) {
      const created = await gateway.request('POST', '/api/v1/orders', {
        key: merchant.liveKey,
        body: { requestedUsdcAmount: '25', notes: { sku: 'bench', invoice: invoice(0) } },
      });
      templates.push([(await orders.findOne({ _id: created.body.responseObject.order.id }))!, count]);
    }
    // The copies hold the event loop for seconds: a request made after them could go out on a kept-alive socket the server is closing.
    for (const [template, count] of templates) for (let i = 1; i < count; i++) await orders.insertOne(copyOf(template, i));
    // An invoice number is in one order of each merchant; `bench` is in every order, so its total reads every one (last,
    // as the requests still queued when its run ends would slow the next one).
    for (const query of ['', '?status=FULFILLED', '?limit=100', `?search=${invoice(42)}`, '?search=bench']) {
      for (const [merchant, count] of [
        [small, smallOrders],
        [big, bigOrders],
      ] as const) {
        const result = await autocannon({
          url: `${gateway.url}/api/v1/merchants/me/orders${query}`,
          headers: { 'x-api-key': merchant.liveKey },
          connections: CONNECTIONS,
          duration: seconds,
        });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`order list ${query}: ${result.non2xx} non-2xx and ${result.errors} errors`);
        rows.push({ query: query || '(first page)', orders: count, perSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 });
      }
    }
  } finally {
    await gateway.stop();
  }
  return rows;
}

/** The template order under a new id and invoice, a second older per copy, every tenth one fulfilled. */
function copyOf(template: ActorDocument, i: number): ActorDocument {
  const view = template.view as Record<string, any>;
  const id = `${template._id}_${i}`;
  const createdAt = new Date(Date.parse(view.createdAt) - i * 1000).toISOString();
  const status = i % 10 === 0 ? 'FULFILLED' : view.status;
  const notes = { ...view.order.notes, invoice: invoice(i) };
  const searchText = String(view.searchText).replace(template._id.toLowerCase(), id.toLowerCase()).replace(invoice(0), invoice(i));
  return {
    ...template,
    _id: id,
    view: {
      ...view,
      createdAt,
      status,
      idempotencyKey: null,
      order: { ...view.order, id, createdAt, status, notes },
      searchText,
      searchGrams: viewGrams(searchText),
    },
  };
}

export function formatOrderList(rows: ListRow[]): string {
  const lines = [
    `### Order list over HTTP, ${CONNECTIONS} connections (baseline: the same query for a merchant with few orders)`,
    '',
    "| query | merchant's orders | req/s | p50 ms | p99 ms | throughput vs small | p99 vs small |",
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const base = rows.find((candidate) => candidate.query === row.query)!;
    lines.push(
      `| ${row.query} | ${row.orders.toLocaleString('en-US')} | ${Math.round(row.perSecond).toLocaleString('en-US')} | ${row.p50Ms} | ${row.p99Ms} | ${(row.perSecond / base.perSecond).toFixed(2)} | ${(row.p99Ms / Math.max(base.p99Ms, 1)).toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}
