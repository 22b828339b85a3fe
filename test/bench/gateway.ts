/**
 * Gateway throughput and latency for order creation and the hosted read, at 16 and
 * 64 connections (autocannon, in this process), beside a Koa hello world measured the
 * same way in the same run, and beside the same create on nodes whose creates store
 * nothing (create-ablation.ts). The hello world and each node run in a process of
 * their own, so none shares an event loop with the load generator or another;
 * the node logs at `npm start`'s level into a file. Everything stays on 127.0.0.1.
 * Two calibration rows run the hello world with a fixed amount of CPU work added to
 * every request, and each row gives the server's CPU per request.
 *
 * Every row runs once per round (BENCH_GATEWAY_ROUNDS, default 3), all targets in turn
 * within a round, and each ratio is taken against the baseline of its own round: on a
 * shared VM the baseline itself moved by a third between runs, and a ratio to a
 * baseline measured seconds away carried that swing. The table gives the medians and
 * the ratio's range over the rounds.
 *
 * After the rounds, creates are sent open loop (open-loop.ts) at a quarter and at half
 * of the median rate the closed loop reached at 16 connections: the latency a create
 * sees at a load the node carries, stalls included, rather than at saturation.
 *
 * BENCH_CPU_PROF=<dir> starts the node with --cpu-prof and leaves its profile there.
 */
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CreateAblation } from './create-ablation.js';
import { median } from './harness.js';
import { openLoop, type OpenLoopSample } from './open-loop.js';
import { settledCpuMicros } from './process-cpu.js';

interface Sample {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** The server process's CPU time (all threads) over the row and the work it left running, per request answered. */
  serverCpuMicros: number;
}

export interface HttpRow {
  target: string;
  connections: number;
  /** One per round, in order. */
  samples: Sample[];
  /** Throughput over the baseline's in the same round, one per round. */
  vsBaseline: number[];
}

const LEVELS = [16, 64];
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const WARM_UP_SECONDS = 2;
const BASELINE = 'Koa hello world (baseline)';
const CREATE = 'POST /api/v1/orders';
/**
 * Create rows on nodes whose creates store nothing (create-ablation.ts): what a create
 * costs with persistence free, so what no store could take away.
 */
const ABLATIONS: Array<[CreateAblation, string]> = [
  ['turn', `${CREATE}, persistence taken away: Koa and the order's turn only (ablation)`],
  ['canned', `${CREATE}, a canned reply: the HTTP side only (ablation)`],
];
/** The open-loop rates, as shares of the closed-loop create rate at the first level. */
const OPEN_LOOP_SHARES = [0.25, 0.5];
/** Work added to the hello world's every request in the calibration rows, in µs. */
const CALIBRATION_WORK_US = [25, 100];

interface Child {
  process: ChildProcess;
  url: string;
}

/** Forks `script` with tsx and resolves once it sends its URL; its stdout goes to `stdout`. */
function start(script: string, options: { env?: Record<string, string>; stdout: number | 'ignore'; execArgv?: string[] }): Promise<Child> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, ...options.env },
    execArgv: [...(options.execArgv ?? []), '--import=tsx'],
    stdio: ['ignore', options.stdout, 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve({ process: child, url: message.url }));
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before it was ready`)));
  });
}

function stop(child: Child): Promise<void> {
  if (child.process.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.process.once('exit', () => resolve());
    child.process.kill('SIGTERM');
  });
}

interface LoadOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

async function load(server: Child, url: string, connections: number, seconds: number, options: LoadOptions = {}): Promise<Sample> {
  const cpuBefore = await settledCpuMicros(server.process);
  const result = await autocannon({ url, connections, duration: seconds, ...options });
  // What the row's requests set off and left running counts to the row.
  const cpuAfter = await settledCpuMicros(server.process);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx and ${result.errors} errors`);
  return {
    perSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    serverCpuMicros: (cpuAfter - cpuBefore) / Math.max(result.requests.total, 1),
  };
}

async function call(url: string, init: RequestInit): Promise<any> {
  const response = await fetch(url, init);
  const body = (await response.json()) as { responseObject: unknown };
  if (!response.ok) throw new Error(`${init.method} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body.responseObject;
}

interface BenchNode {
  child: Child;
  /** The create request of a merchant made on this node. */
  create: LoadOptions;
  /** An order the first create made. */
  orderId: string;
}

/** A node as `npm start` boots it, logging into `logFile`, with a merchant and one order made over HTTP. */
async function startNode(logFile: number, profileDir: string | undefined, ablation?: CreateAblation): Promise<BenchNode> {
  const child = await start('./gateway-node.ts', {
    stdout: logFile,
    env: {
      PORT: '0',
      PEER_ADMIN_TOKEN: ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '1000000',
      INDEXER_ENABLED: 'false',
      ENCLAVE_ENABLED: 'false',
      ...(ablation ? { BENCH_ABLATION: ablation } : {}),
    },
    execArgv: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  });
  const json = { 'content-type': 'application/json' };
  const merchant = await call(`${child.url}/internal/v1/merchants`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ name: 'Acme', tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' }),
  });
  const create: LoadOptions = {
    method: 'POST',
    headers: { ...json, 'x-api-key': merchant.liveApiKey },
    body: JSON.stringify({ requestedUsdcAmount: '25', notes: { sku: 'bench' } }),
  };
  const created = await call(`${child.url}/api/v1/orders`, create);
  return { child, create, orderId: created.order.id };
}

export interface GatewayResult {
  rows: HttpRow[];
  /** Creates sent open loop after the rounds, one per share of OPEN_LOOP_SHARES. */
  openLoop: OpenLoopSample[];
}

export async function gatewayBenchmark(seconds: number, rounds: number): Promise<GatewayResult> {
  const logs = mkdtempSync(join(tmpdir(), 'peer-bench-gateway-'));
  const logFile = openSync(join(logs, 'node.log'), 'a');
  const profileDir = process.env.BENCH_CPU_PROF;
  const children: Child[] = [];
  try {
    const hello = await start('./hello-node.ts', { stdout: 'ignore' });
    children.push(hello);
    const calibrations: Array<[string, Child]> = [];
    for (const workUs of CALIBRATION_WORK_US) {
      const slowed = await start('./hello-node.ts', { stdout: 'ignore', env: { HELLO_WORK_US: String(workUs) } });
      children.push(slowed);
      calibrations.push([`Koa hello world, ${workUs} µs more work a request (calibration)`, slowed]);
    }
    const node = await startNode(logFile, profileDir);
    children.push(node.child);
    const ablated: Array<[string, BenchNode]> = [];
    for (const [ablation, target] of ABLATIONS) {
      const ablatedNode = await startNode(logFile, undefined, ablation);
      children.push(ablatedNode.child);
      ablated.push([target, ablatedNode]);
    }
    const targets: Array<[string, Child, string, LoadOptions]> = [
      [BASELINE, hello, `${hello.url}/`, {}],
      ...calibrations.map(([target, slowed]): [string, Child, string, LoadOptions] => [target, slowed, `${slowed.url}/`, {}]),
      [CREATE, node.child, `${node.child.url}/api/v1/orders`, node.create],
      ...ablated.map(([target, { child, create }]): [string, Child, string, LoadOptions] => [target, child, `${child.url}/api/v1/orders`, create]),
      ['GET /api/v1/orders/{id}', node.child, `${node.child.url}/api/v1/orders/${node.orderId}`, {}],
    ];
    // The first seconds of a fresh process run cold code; none of them is counted.
    for (const [, server, url, options] of targets) await load(server, url, LEVELS[0]!, WARM_UP_SECONDS, options);
    const rows: HttpRow[] = [];
    for (const connections of LEVELS) {
      const level = targets.map(([target]): HttpRow => ({ target, connections, samples: [], vsBaseline: [] }));
      for (let round = 0; round < rounds; round++) {
        for (const [i, [, server, url, options]] of targets.entries()) level[i]!.samples.push(await load(server, url, connections, seconds, options));
        const baseline = level[0]!.samples[round]!.perSecond;
        for (const row of level) row.vsBaseline.push(row.samples[round]!.perSecond / baseline);
      }
      rows.push(...level);
    }
    const closedRate = median(rows.find((row) => row.target === CREATE && row.connections === LEVELS[0])!.samples.map((sample) => sample.perSecond));
    const create = { url: `${node.child.url}/api/v1/orders`, method: 'POST' as const, headers: node.create.headers!, body: node.create.body! };
    const open: OpenLoopSample[] = [];
    for (const share of OPEN_LOOP_SHARES) open.push(await openLoop(create, Math.max(1, Math.round(closedRate * share)), seconds * 2));
    return { rows, openLoop: open };
  } finally {
    await Promise.all(children.map(stop));
    closeSync(logFile);
    rmSync(logs, { recursive: true, force: true });
  }
}

export function formatGateway({ rows, openLoop: open }: GatewayResult): string {
  const rounds = rows[0]?.samples.length ?? 0;
  const lines = [
    `### Gateway over HTTP (baseline: Koa hello world; each in its own process, the node at LOG_LEVEL=info; medians of ${rounds} rounds)`,
    '',
    '| endpoint | connections | req/s | p50 ms | p99 ms | server CPU µs/req | throughput vs hello | its range over the rounds | p99 vs hello |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const base = rows.find((candidate) => candidate.connections === row.connections && candidate.target === BASELINE)!;
    const of = (pick: (sample: Sample) => number) => median(row.samples.map(pick));
    const p99 = of((sample) => sample.p99Ms);
    const baseP99 = median(base.samples.map((sample) => sample.p99Ms));
    lines.push(
      `| ${row.target} | ${row.connections} | ${Math.round(of((sample) => sample.perSecond)).toLocaleString('en-US')} | ${of((sample) => sample.p50Ms)} | ${p99} | ${Math.round(of((sample) => sample.serverCpuMicros)).toLocaleString('en-US')} | ${median(row.vsBaseline).toFixed(3)} | ${Math.min(...row.vsBaseline).toFixed(3)}–${Math.max(...row.vsBaseline).toFixed(3)} | ${(p99 / Math.max(baseP99, 1)).toFixed(1)} |`,
    );
  }
  lines.push(
    '',
    `#### ${CREATE} open loop, after the rounds (each request timed from when it was due; rates a share of the closed loop's at ${LEVELS[0]} connections)`,
    '',
    '| share of the closed-loop rate | asked req/s | answered req/s | p50 ms | p90 ms | p99 ms | max ms |',
    '|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const [i, sample] of open.entries()) {
    lines.push(
      `| ${OPEN_LOOP_SHARES[i]} | ${sample.rate.toLocaleString('en-US')} | ${Math.round(sample.answeredPerSecond).toLocaleString('en-US')} | ${sample.p50Ms} | ${sample.p90Ms} | ${sample.p99Ms} | ${sample.maxMs} |`,
    );
  }
  return lines.join('\n');
}
