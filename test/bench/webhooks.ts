/**
 * Webhook deliveries per second to a receiver on loopback, and the time from an event to
 * its delivery, beside a bare `fetch` loop to the same receiver in the same run.
 *
 * One embedded node in this process (startTestGateway: the in-memory embedded store, the
 * TestClock, whose standing still does not matter as first attempts go at once, and
 * WEBHOOK_ALLOW_PRIVATE), a plain node:http receiver on 127.0.0.1 answering 200, and one
 * merchant. Each level creates `orders` orders (POST /api/v1/orders, fetch) from `inFlight`
 * creators in a closed loop; every create emits ORDER_CREATED, which the node's dispatcher
 * makes into one delivery to the merchant's one endpoint (subscribed to ORDER_CREATED).
 * Deliveries/s counts from the first create sent to the last delivery received. Event to
 * delivery is wall time in this process: from the create's answer (the event is emitted in
 * the turn that answers it) to the receiver having the whole request, matched on
 * data.order.id; the TestClock's `timestamp` in the body is not used.
 *
 * Baselines, in the same run: the same creates before any endpoint is registered (what
 * creating an order costs this process on its own); and a bare `fetch` loop in a child
 * process (webhooks-fetch-child.ts) POSTing a body the node delivered, signed afresh per
 * request with the node's signer, to the same receiver at the same concurrency; and the
 * same loop with node:http and a keep-alive agent, which is how the node's sender posts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startTestGateway } from '../support/gateway.js';
import { closedLoop, percentile, type LoadResult } from './harness.js';
import type { FetchLoopReply, FetchLoopRequest } from './webhooks-fetch-child.js';

export const WEBHOOK_LEVELS = [1, 8];
const WARM_UP_ORDERS = 200;
const DELIVERY_TIMEOUT_MS = 60_000;
const ORDER = { requestedUsdcAmount: '10', destinationAddress: '0x2222222222222222222222222222222222222222' };

export interface DeliveryRow {
  inFlight: number;
  /** Creates with no endpoint registered. */
  createsAlone: LoadResult;
  /** The same creates with the endpoint registered, timed to their answers. */
  createsWithEndpoint: LoadResult;
  deliveriesPerSecond: number;
  eventToDelivery: { p50Ms: number; p99Ms: number; maxMs: number };
  /** Deliveries received before their create's answer was read. */
  early: number;
  /** Requests received more than once for the same order. */
  duplicates: number;
  fetch: LoadResult;
  /** The same loop with node:http and a keep-alive agent. */
  http: LoadResult;
}

export interface WebhooksBench {
  orders: number;
  bodyBytes: number;
  rows: DeliveryRow[];
}

interface Receiver {
  url: string;
  /** performance.now() when the first request for each order was whole. */
  arrivals: Map<string, number>;
  requests: number;
  duplicates: number;
  /** The last body received. */
  lastBody: string;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      const body = Buffer.concat(chunks).toString('utf8');
      const orderId = (JSON.parse(body) as { data?: { order?: { id?: unknown } } }).data?.order?.id;
      receiver.requests++;
      receiver.lastBody = body;
      if (typeof orderId === 'string') {
        if (receiver.arrivals.has(orderId)) receiver.duplicates++;
        else receiver.arrivals.set(orderId, at);
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    arrivals: new Map(),
    requests: 0,
    duplicates: 0,
    lastBody: '',
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return receiver;
}

interface FetchChild {
  run(request: FetchLoopRequest): Promise<LoadResult>;
  stop(): Promise<void>;
}

async function startFetchChild(): Promise<FetchChild> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./webhooks-fetch-child.ts', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    execArgv: ['--import=tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`webhooks-fetch-child.ts exited (${code}) before it was ready`)));
  });
  return {
    run: (request) =>
      new Promise((resolve, reject) => {
        const exited = (code: number | null) => reject(new Error(`webhooks-fetch-child.ts exited (${code})`));
        child.once('exit', exited);
        child.once('message', (reply: FetchLoopReply) => {
          child.off('exit', exited);
          if ('result' in reply) resolve(reply.result);
          else reject(new Error(`the fetch loop failed: ${'error' in reply ? reply.error : 'no result'}`));
        });
        child.send(request);
      }),
    stop: () => {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      return new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

async function answerOf(response: Response, status: number, what: string): Promise<any> {
  const body = (await response.json()) as { responseObject: unknown };
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${JSON.stringify(body)}`);
  return body.responseObject;
}

async function waitFor(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + DELIVERY_TIMEOUT_MS;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function webhooksBenchmark(orders: number): Promise<WebhooksBench> {
  const gateway = await startTestGateway({ WEBHOOK_ALLOW_PRIVATE: true, RATE_LIMIT_PER_MINUTE: 1_000_000 });
  const receiver = await startReceiver();
  let child: FetchChild | undefined;
  try {
    child = await startFetchChild();
    const merchant = await gateway.createMerchant();
    const headers = { 'content-type': 'application/json', 'x-api-key': merchant.liveKey };
    const payload = JSON.stringify(ORDER);
    /** Creates one order; `answered` gets the time its answer was read, under its id. */
    const create = async (answered?: Map<string, number>) => {
      const order = (await answerOf(await fetch(`${gateway.url}/api/v1/orders`, { method: 'POST', headers, body: payload }), 201, 'order create')).order as {
        id: string;
      };
      answered?.set(order.id, performance.now());
      return order.id;
    };

    // Creates alone: no endpoint is registered on the node yet.
    await closedLoop(() => create(), WEBHOOK_LEVELS.at(-1)!, WARM_UP_ORDERS);
    const alone = new Map<number, LoadResult>();
    for (const inFlight of WEBHOOK_LEVELS) alone.set(inFlight, await closedLoop(() => create(), inFlight, orders));

    const webhook = await answerOf(
      await fetch(`${gateway.url}/api/v1/webhooks`, { method: 'POST', headers, body: JSON.stringify({ url: receiver.url, events: ['ORDER_CREATED'] }) }),
      201,
      'webhook create',
    );
    // Warm-up with the endpoint, uncounted; its last body is what the fetch loop sends.
    const warm = new Map<string, number>();
    await closedLoop(() => create(warm), WEBHOOK_LEVELS.at(-1)!, WARM_UP_ORDERS);
    await waitFor(() => [...warm.keys()].every((id) => receiver.arrivals.has(id)), 'the warm-up deliveries');
    const body = receiver.lastBody;
    const eventId = (JSON.parse(body) as { id: string }).id;
    const loop = (client: FetchLoopRequest['client'], inFlight: number, total: number) =>
      child!.run({ url: receiver.url, body, eventId, secret: webhook.secret, client, inFlight, total });
    for (const client of ['fetch', 'node:http'] as const) await loop(client, WEBHOOK_LEVELS.at(-1)!, WARM_UP_ORDERS);

    const rows: DeliveryRow[] = [];
    for (const inFlight of WEBHOOK_LEVELS) {
      const answered = new Map<string, number>();
      const duplicatesBefore = receiver.duplicates;
      const started = performance.now();
      const createsWithEndpoint = await closedLoop(() => create(answered), inFlight, orders);
      const ids = [...answered.keys()];
      await waitFor(() => ids.every((id) => receiver.arrivals.has(id)), `${orders} deliveries at ${inFlight} in flight`);
      const latencies = ids.map((id) => receiver.arrivals.get(id)! - answered.get(id)!).sort((a, b) => a - b);
      const last = Math.max(...ids.map((id) => receiver.arrivals.get(id)!));
      rows.push({
        inFlight,
        createsAlone: alone.get(inFlight)!,
        createsWithEndpoint,
        deliveriesPerSecond: orders / ((last - started) / 1000),
        eventToDelivery: { p50Ms: percentile(latencies, 0.5), p99Ms: percentile(latencies, 0.99), maxMs: latencies.at(-1)! },
        early: latencies.filter((ms) => ms < 0).length,
        duplicates: receiver.duplicates - duplicatesBefore,
        fetch: await loop('fetch', inFlight, orders),
        http: await loop('node:http', inFlight, orders),
      });
    }
    return { orders, bodyBytes: Buffer.byteLength(body), rows };
  } finally {
    await child?.stop();
    await receiver.close();
    await gateway.stop();
  }
}

export function formatWebhooks(result: WebhooksBench): string {
  const fmt = (value: number, digits: number) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  const lines = [
    `### Webhook deliveries to a loopback receiver, ${fmt(result.orders, 0)} orders per level, one endpoint, ${fmt(result.bodyBytes, 0)}-byte body (baseline: a bare fetch loop of the same signed body to the same receiver, in a child process)`,
    '',
    '| in flight | deliveries/s | event to delivery p50 ms | p99 ms | max ms | fetch/s | fetch p50 ms | fetch p99 ms | throughput ratio | p99 ratio |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of result.rows) {
    lines.push(
      `| ${row.inFlight} | ${fmt(row.deliveriesPerSecond, 0)} | ${fmt(row.eventToDelivery.p50Ms, 2)} | ${fmt(row.eventToDelivery.p99Ms, 2)} | ${fmt(row.eventToDelivery.maxMs, 1)} | ${fmt(row.fetch.perSecond, 0)} | ${fmt(row.fetch.p50Ms, 2)} | ${fmt(row.fetch.p99Ms, 2)} | ${fmt(row.deliveriesPerSecond / row.fetch.perSecond, 3)} | ${fmt(row.eventToDelivery.p99Ms / row.fetch.p99Ms, 1)} |`,
    );
  }
  lines.push(
    '',
    'Order creates in the same process, before any endpoint was registered (baseline) and with the endpoint, each create timed to its answer; the last column is deliveries/s over creates/s with no endpoint.',
    '',
    '| in flight | creates/s, no endpoint | p50 ms | p99 ms | creates/s, with endpoint | p50 ms | p99 ms | creates ratio | deliveries vs creates |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const row of result.rows) {
    const { createsAlone: alone, createsWithEndpoint: withEndpoint } = row;
    lines.push(
      `| ${row.inFlight} | ${fmt(alone.perSecond, 0)} | ${fmt(alone.p50Ms, 2)} | ${fmt(alone.p99Ms, 2)} | ${fmt(withEndpoint.perSecond, 0)} | ${fmt(withEndpoint.p50Ms, 2)} | ${fmt(withEndpoint.p99Ms, 2)} | ${fmt(withEndpoint.perSecond / alone.perSecond, 3)} | ${fmt(row.deliveriesPerSecond / alone.perSecond, 3)} |`,
    );
  }
  lines.push(
    '',
    "The bare loop with node:http and a keep-alive agent instead of fetch (the node's sender posts so), same child process, body and receiver.",
    '',
    '| in flight | node:http/s | p50 ms | p99 ms | deliveries vs node:http | fetch vs node:http |',
    '|---:|---:|---:|---:|---:|---:|',
  );
  for (const row of result.rows) {
    lines.push(
      `| ${row.inFlight} | ${fmt(row.http.perSecond, 0)} | ${fmt(row.http.p50Ms, 2)} | ${fmt(row.http.p99Ms, 2)} | ${fmt(row.deliveriesPerSecond / row.http.perSecond, 3)} | ${fmt(row.fetch.perSecond / row.http.perSecond, 3)} |`,
    );
  }
  const odd = result.rows.filter((row) => row.early > 0 || row.duplicates > 0);
  for (const row of odd)
    lines.push(
      '',
      `At ${row.inFlight} in flight: ${row.early} deliveries arrived before their create's answer was read, ${row.duplicates} were received twice.`,
    );
  return lines.join('\n');
}
