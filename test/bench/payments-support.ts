/**
 * What the payment benchmarks share: the node of the embedded default in a process of its
 * own (payments-node.ts, on a fresh DATA_DIR and a fresh local anvil, logging at `npm
 * start`'s level into a file; BENCH_CPU_PROF=<dir> starts it with --cpu-prof), a live
 * merchant on it, orders placed and paid over HTTP as the hosted checkout page does it,
 * polling with a deadline, and one request at a time timed in fractions of a millisecond.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PaymentsNodeReady, PaymentsNodeReply, PaymentsNodeRequest } from './payments-node.js';
import { percentile } from './harness.js';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

export interface PaymentsNode extends PaymentsNodeReady {
  process: ChildProcess;
  /** Asks the node's process; rejects with its error. */
  ask(request: DistributiveOmit<PaymentsNodeRequest, 'id'>): Promise<unknown>;
  /** The node's last warnings and errors and the last lines of its log, for an error's message. */
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

/**
 * Forks payments-node.ts with `env` over the environment and resolves once it is ready.
 * Its stdout and stderr go to a log file in a temporary folder, which holds its DATA_DIR too.
 */
export async function startPaymentsNode(env: Record<string, string> = {}): Promise<PaymentsNode> {
  const folder = mkdtempSync(join(tmpdir(), 'peer-bench-payments-'));
  const logPath = join(folder, 'node.log');
  const log = openSync(logPath, 'a');
  const profileDir = process.env.BENCH_CPU_PROF;
  const child = fork(fileURLToPath(new URL('./payments-node.ts', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: join(folder, 'data'),
      PEER_ADMIN_TOKEN: ADMIN_TOKEN,
      // The bench's client is one address; the node's default would refuse it after 1,200 requests a minute.
      RATE_LIMIT_PER_MINUTE: '1000000',
      ...env,
    },
    execArgv: [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), '--import=tsx'],
    stdio: ['ignore', log, log, 'ipc'],
  });
  const logTail = (lines = 10) => {
    try {
      const all = readFileSync(logPath, 'utf8').trimEnd().split('\n');
      const warnings = all.filter((line) => /"level":[4-6]\d/.test(line)).slice(-lines);
      return [...warnings, '…', ...all.slice(-lines)].join('\n');
    } catch {
      return '';
    }
  };
  const cleanUp = () => {
    closeSync(log);
    rmSync(folder, { recursive: true, force: true });
  };
  let ready: PaymentsNodeReady;
  try {
    ready = await new Promise<PaymentsNodeReady>((resolve, reject) => {
      child.once('message', (message: PaymentsNodeReady) => resolve(message));
      child.once('exit', (code) => reject(new Error(`payments-node.ts exited (${code}) before it was ready:\n${logTail()}`)));
    });
  } catch (error) {
    cleanUp();
    throw error;
  }
  let nextId = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (reply: PaymentsNodeReply) => {
    const pending = waiting.get(reply.id);
    if (!pending) return;
    waiting.delete(reply.id);
    if (reply.error !== undefined) pending.reject(new Error(reply.error));
    else pending.resolve(reply.value);
  });
  child.once('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`the node exited (${code})`));
    waiting.clear();
  });
  return {
    ...ready,
    process: child,
    ask(request) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ ...request, id });
      });
    },
    logTail,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        await new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        });
      }
      cleanUp();
    },
  };
}

export interface Envelope<T = any> {
  status: number;
  body: { success: boolean; message: string; responseObject: T; errorCode?: string };
}

/** One request; the body, if any, as JSON. */
export async function request<T = any>(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Envelope<T>> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) };
}

/** The response object of a request that must answer `status`. */
export async function expect<T = any>(status: number, url: string, init: Parameters<typeof request>[1] = {}): Promise<T> {
  const answer = await request<T>(url, init);
  if (answer.status !== status) throw new Error(`${init.method ?? 'GET'} ${url}: expected ${status}, got ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.responseObject;
}

/** A merchant on tier BASE (every fiat rail enabled) through the admin API: its live key. */
export async function liveMerchant(node: { url: string }): Promise<string> {
  const created = await expect(201, `${node.url}/internal/v1/merchants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    body: { name: 'Bench Shop', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' },
  });
  return created.liveApiKey as string;
}

export interface BenchOrder {
  id: string;
  token: string;
  /** /api/v1/checkout/orders/{id}{path} with the order token. */
  customer<T = any>(method: string, path: string, body?: unknown): Promise<Envelope<T>>;
}

/** The address orders are paid out to unless they name another: an EVM address on the chain the local chain stands in for. */
export const DESTINATION = '0x2222222222222222222222222222222222222222';

export async function placeOrder(node: { url: string }, key: string, body: Record<string, unknown>): Promise<BenchOrder> {
  const created = await expect(201, `${node.url}/api/v1/orders`, {
    method: 'POST',
    headers: { 'x-api-key': key },
    body: { destinationAddress: DESTINATION, ...body },
  });
  const { order, orderToken } = created as { order: { id: string }; orderToken: string };
  const base = `${node.url}/api/v1/checkout/orders/${order.id}`;
  return {
    id: order.id,
    token: orderToken,
    customer: (method, path, requestBody) => request(`${base}${path}`, { method, body: requestBody, headers: { authorization: `Bearer ${orderToken}` } }),
  };
}

/**
 * Reads until `done` holds, every `everyMs`, for at most `timeoutMs`: what the checkout page
 * does while the chain and the indexer move (it polls every 1.5 s; the benchmarks more often).
 */
export async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  what: string,
  options: { everyMs?: number; timeoutMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 25));
  }
}

export interface HttpLatency {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * One request at a time for `seconds` over one kept-alive connection (node:http, which
 * costs this process little), each timed to its last byte: the latency of a request on its
 * own, in fractions of a millisecond (autocannon counts whole ones). Throws unless every
 * answer is 200.
 */
export async function oneAtATime(url: string, headers: Record<string, string>, seconds: number): Promise<HttpLatency> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const req = httpRequest({ agent, host: target.hostname, port: target.port, path: target.pathname + target.search, headers }, (res) => {
        res.on('data', () => {});
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${res.statusCode}`))));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + seconds * 1000;
  try {
    while (performance.now() < end) {
      const t0 = performance.now();
      await get();
      latencies.push(performance.now() - t0);
    }
  } finally {
    agent.destroy();
  }
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}
