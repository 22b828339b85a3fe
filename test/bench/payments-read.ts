/**
 * The hosted order read (GET /api/v1/orders/{orderId}, no credential: what the checkout page
 * polls) of an order that carries a current payment, beside the same read of an order of the
 * same merchant and amount without one, on the same node in the same run.
 *
 * The node is the embedded default in a process of its own (payments-node.ts). The payment
 * is live and real: created with the order token on a seeded maker's Venmo deposit, its
 * intent signalled on the local chain, and left awaiting the customer's payment, the state
 * the page polls longest. Nothing writes either order while they are read. Each read one
 * at a time (node:http, fractions of a ms), then at 16 and 64 connections (autocannon, in
 * this process), BENCH_SECONDS each, after 2 s of unrecorded warm-up.
 */
import autocannon from 'autocannon';
import { expect, liveMerchant, oneAtATime, placeOrder, startPaymentsNode, until, type HttpLatency, type PaymentsNode } from './payments-support.js';
import { bookNow } from './quotes-book.js';

export interface ReadRow {
  target: string;
  bytes: number;
  single: HttpLatency;
  loaded: Array<{ connections: number; perSecond: number; p50Ms: number; p99Ms: number }>;
}

const LEVELS = [16, 64];
const WARM_UP_SECONDS = 2;

export async function paymentReadBenchmark(seconds: number): Promise<ReadRow[]> {
  let node: PaymentsNode | undefined;
  try {
    node = await startPaymentsNode();
    const key = await liveMerchant(node);
    await bookNow(node);
    const plain = await placeOrder(node, key, { requestedUsdcAmount: '25' });
    const paying = await placeOrder(node, key, { requestedUsdcAmount: '25' });
    const created = await paying.customer('POST', '/payments', { rail: 'venmo' });
    if (created.status !== 201) throw new Error(`payment create answered ${created.status}: ${JSON.stringify(created.body)}`);
    const paymentId = created.body.responseObject.id as string;
    const n = node;
    const hosted = (orderId: string) => expect(200, `${n.url}/api/v1/orders/${orderId}`);
    await until(
      () => hosted(paying.id),
      (read) => {
        // The order hears of its payment after the create has answered: at first it may show none.
        if (read.currentPayment === null) return false;
        if (read.currentPayment.status !== 'CREATED')
          throw new Error(`payment ${paymentId} is ${read.currentPayment.status} (${read.currentPayment.errorCode})`);
        return read.currentPayment.id === paymentId && read.currentPayment.railIdentifier !== null;
      },
      `the intent of ${paymentId} to be signalled`,
    );
    const plainRead = await hosted(plain.id);
    if (plainRead.currentPayment !== null) throw new Error(`order ${plain.id} has a current payment`);

    const targets: Array<[string, string]> = [
      ['without a payment (baseline)', `${node.url}/api/v1/orders/${plain.id}`],
      ['with a current payment, awaiting the customer', `${node.url}/api/v1/orders/${paying.id}`],
    ];
    for (const [, url] of targets) await autocannon({ url, connections: LEVELS[0]!, duration: WARM_UP_SECONDS });
    const rows: ReadRow[] = [];
    for (const [target, url] of targets) {
      const bytes = (await (await fetch(url)).arrayBuffer()).byteLength;
      rows.push({ target, bytes, single: await oneAtATime(url, {}, seconds), loaded: [] });
    }
    for (const connections of LEVELS) {
      for (const [i, [, url]] of targets.entries()) {
        const result = await autocannon({ url, connections, duration: seconds });
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
        rows[i]!.loaded.push({ connections, perSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 });
      }
    }
    // The payment was still awaiting the customer when the last read was taken.
    const after = await hosted(paying.id);
    if (after.currentPayment?.id !== paymentId || after.currentPayment.status !== 'CREATED') throw new Error(`payment ${paymentId} moved while it was read`);
    return rows;
  } catch (error) {
    if (node) throw new Error(`${(error as Error).message}\nthe node's last log lines:\n${node.logTail()}`, { cause: error });
    throw error;
  } finally {
    await node?.stop();
  }
}

export function formatPaymentRead(rows: ReadRow[]): string {
  const fmt = (value: number, digits: number) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const base = rows[0]!;
  const lines = [
    '### Hosted order read over HTTP, GET /api/v1/orders/{id}, of an order with a current payment (baseline: the same read of an order without one; the node in its own process at LOG_LEVEL=info)',
    '',
    '| order | answer bytes | connections | req/s | p50 ms | p99 ms | throughput vs without | p99 vs without |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.target} | ${fmt(row.bytes, 0)} | 1 at a time | ${fmt(row.single.perSecond, 0)} | ${fmt(row.single.p50Ms, 3)} | ${fmt(row.single.p99Ms, 3)} | ${fmt(row.single.perSecond / base.single.perSecond, 3)} | ${fmt(row.single.p99Ms / base.single.p99Ms, 2)} |`,
    );
  }
  for (const [level, { connections }] of base.loaded.entries()) {
    for (const row of rows) {
      const { perSecond, p50Ms, p99Ms } = row.loaded[level]!;
      const against = base.loaded[level]!;
      lines.push(
        `| ${row.target} | ${fmt(row.bytes, 0)} | ${connections} | ${fmt(perSecond, 0)} | ${p50Ms} | ${p99Ms} | ${fmt(perSecond / against.perSecond, 3)} | ${fmt(p99Ms / Math.max(against.p99Ms, 1), 2)} |`,
      );
    }
  }
  return lines.join('\n');
}
