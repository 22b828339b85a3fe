/**
 * Gateway throughput and p99 for order creation and the hosted read, at 16 and 64
 * connections (autocannon), beside a Koa hello-world server measured the same way
 * in the same run. Everything stays on 127.0.0.1.
 */
import autocannon from 'autocannon';
import Koa from 'koa';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestGateway } from '../support/gateway.js';

export interface HttpRow {
  target: string;
  connections: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const LEVELS = [16, 64];

async function load(url: string, connections: number, seconds: number, options: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}) {
  const result = await autocannon({ url, connections, duration: seconds, ...options });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  return { perSecond: result.requests.average, p50Ms: result.latency.p50, p99Ms: result.latency.p99 };
}

export async function gatewayBenchmark(seconds: number): Promise<HttpRow[]> {
  const hello = new Koa();
  hello.use((ctx) => {
    ctx.body = { success: true, message: 'hello', responseObject: null, statusCode: 200 };
  });
  const helloServer = createServer(hello.callback());
  await new Promise<void>((resolve) => helloServer.listen(0, '127.0.0.1', resolve));
  const helloUrl = `http://127.0.0.1:${(helloServer.address() as AddressInfo).port}/`;

  const gateway = await startTestGateway({ RATE_LIMIT_PER_MINUTE: 1_000_000 });
  const rows: HttpRow[] = [];
  try {
    const { liveKey } = await gateway.createMerchant();
    const created = await gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: '25' } });
    const hostedUrl = `${gateway.url}/api/v1/orders/${created.body.responseObject.order.id}`;
    const create = {
      method: 'POST' as const,
      headers: { 'content-type': 'application/json', 'x-api-key': liveKey },
      body: JSON.stringify({ requestedUsdcAmount: '25', notes: { sku: 'bench' } }),
    };
    for (const connections of LEVELS) {
      rows.push({ target: 'Koa hello world (baseline)', connections, ...(await load(helloUrl, connections, seconds)) });
      rows.push({ target: 'POST /api/v1/orders', connections, ...(await load(`${gateway.url}/api/v1/orders`, connections, seconds, create)) });
      rows.push({ target: 'GET /api/v1/orders/{id}', connections, ...(await load(hostedUrl, connections, seconds)) });
    }
  } finally {
    await gateway.stop();
    helloServer.close();
  }
  return rows;
}

export function formatGateway(rows: HttpRow[]): string {
  const lines = [
    '### Gateway over HTTP (baseline: Koa hello world)',
    '',
    '| endpoint | connections | req/s | p50 ms | p99 ms | throughput vs hello | p99 vs hello |',
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const base = rows.find((candidate) => candidate.connections === row.connections && candidate.target.startsWith('Koa'))!;
    lines.push(
      `| ${row.target} | ${row.connections} | ${Math.round(row.perSecond).toLocaleString('en-US')} | ${row.p50Ms} | ${row.p99Ms} | ${(row.perSecond / base.perSecond).toFixed(3)} | ${(row.p99Ms / Math.max(base.p99Ms, 1)).toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}
