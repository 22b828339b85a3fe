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
import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNodeWithOrder, type BenchNode } from './bench-node.js';
import { start, stop, type Child } from './children.js';
import type { CreateAblation } from './create-ablation.js';
import { median } from './harness.js';
import { load, type LoadOptions, type Sample } from './http-load.js';
import { openLoop, type OpenLoopSample } from './open-loop.js';

export interface HttpRow {
  target: string;
  connections: number;
  /** One per round, in order. */
  samples: Sample[];
  /** Throughput over the baseline's in the same round, one per round. */
  vsBaseline: number[];
}

const LEVELS = [16, 64];
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
    const node = await startNodeWithOrder({ logFile, profileDir });
    children.push(node.child);
    const ablated: Array<[string, BenchNode]> = [];
    for (const [ablation, target] of ABLATIONS) {
      const ablatedNode = await startNodeWithOrder({ logFile, ablation });
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
