/**
 * Issue 42's rows, "one node, fast and large", each a target of the issue, printed with
 * medians of rounds and the range over them:
 *
 * - create throughput of a durable node (DATA_DIR in a temporary folder) against the
 *   plain Koa + zod + PostgreSQL peer (postgres-peer.ts), both at 16 connections, and
 *   the CPU a create costs the node's process (all threads), in memory and durable;
 * - the hosted read (GET /api/v1/orders/{id}) against a Koa hello world, at 16 and 64
 *   connections, on a durable node;
 * - the V8 heap each order held costs a node, after forced collections;
 * - the restart of a node over a big data folder, to ready;
 * - creates sent open loop to a node over that folder: p50, p99 and max;
 * - the order search that matches every order of the folder's merchant against the
 *   same search for a merchant with 100 orders.
 *
 * The big folder (big-folder.ts) is built once per run through the order kind, or read
 * from BENCH_BIG_FOLDER where `npm run bench:build-folder` left one; the open-loop row
 * adds its creates to it, and the rows after it count them.
 */
import autocannon from 'autocannon';
import { closeSync, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Agent } from 'node:http';
import { join, resolve } from 'node:path';
import { addMerchant, createRequest, nodeReady, startBenchNode, startNodeWithOrder } from './bench-node.js';
import { buildBigFolder, readBigFolder, writeBigFolder, type BigFolder } from './big-folder.js';
import { start, stop, type Child } from './children.js';
import { median, timedLoop, type LoadResult } from './harness.js';
import { call, load, type LoadOptions, type Sample } from './http-load.js';
import { openLoop, send, type OpenLoopSample } from './open-loop.js';
import { collectedHeapBytes } from './process-heap.js';
import { startPostgresPeer } from './postgres-peer.js';

/** Sizes and lengths, from the environment; BENCH_QUICK=1 shrinks every default to a smoke run. */
export interface OneNodeSettings {
  seconds: number;
  rounds: number;
  /** Orders in the big folder (BENCH_ORDERS). */
  orders: number;
  tailRate: number;
  tailSeconds: number;
  heapOrders: number;
  smallOrders: number;
}

export function oneNodeSettings(env: NodeJS.ProcessEnv = process.env): OneNodeSettings {
  const quick = env.BENCH_QUICK === '1';
  const number = (name: string, normal: number, small: number) => Number(env[name] ?? (quick ? small : normal));
  return {
    seconds: number('BENCH_SECONDS', 5, 2),
    rounds: number('BENCH_ROUNDS', 3, 1),
    orders: number('BENCH_ORDERS', 100_000, 2_000),
    tailRate: number('BENCH_TAIL_RATE', 500, 100),
    tailSeconds: number('BENCH_TAIL_SECONDS', 60, 5),
    heapOrders: number('BENCH_HEAP_ORDERS', 10_000, 1_000),
    smallOrders: number('BENCH_SMALL_ORDERS', 100, 100),
  };
}

const CONNECTIONS = 16;
const READ_LEVELS = [16, 64];
const WARM_UP_SECONDS = 2;

/** A scratch folder for node logs and data folders, removed when the run ends. */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'peer-bench-one-node-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const logs = (dir: string) => openSync(join(dir, 'node.log'), 'a');

interface Spread {
  median: number;
  min: number;
  max: number;
}

function spread(values: number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

const int = (value: number) => Math.round(value).toLocaleString('en-US');
const fixed = (digits: number) => (value: number) => value.toFixed(digits);
const show = (s: Spread, format: (value: number) => string = int) => `${format(s.median)} (${format(s.min)}–${format(s.max)})`;

// --- create throughput against the PostgreSQL peer, and CPU per create ---

export interface CreateResult {
  /** Null where no PostgreSQL answered. */
  peerServer: string | null;
  targets: Array<{ target: string; samples: Sample[] }>;
  /** The durable node's rate over the peer's, one per round. */
  vsPeer: number[];
}

const MEMORY_CREATE = 'our node, in memory';
const DURABLE_CREATE = 'our node, durable (DATA_DIR)';
const PEER_CREATE = 'Koa + zod + PostgreSQL peer';

export async function createBenchmark({ seconds, rounds }: OneNodeSettings): Promise<CreateResult> {
  const dir = scratch();
  const logFile = logs(dir);
  const children: Child[] = [];
  const peer = await startPostgresPeer(CONNECTIONS);
  try {
    const memory = await startNodeWithOrder({ logFile });
    children.push(memory.child);
    const durable = await startNodeWithOrder({ logFile, dataDir: join(dir, 'durable') });
    children.push(durable.child);
    const targets: Array<[string, Child, LoadOptions]> = [
      [MEMORY_CREATE, memory.child, memory.create],
      [DURABLE_CREATE, durable.child, durable.create],
      ...(peer ? [[PEER_CREATE, peer.child, peer.create] as [string, Child, LoadOptions]] : []),
    ];
    const url = (child: Child) => `${child.url}/api/v1/orders`;
    for (const [, child, options] of targets) await load(child, url(child), CONNECTIONS, WARM_UP_SECONDS, options);
    const rows = targets.map(([target]) => ({ target, samples: [] as Sample[] }));
    const vsPeer: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const [i, [, child, options]] of targets.entries()) rows[i]!.samples.push(await load(child, url(child), CONNECTIONS, seconds, options));
      if (peer) vsPeer.push(rows[1]!.samples[round]!.perSecond / rows[2]!.samples[round]!.perSecond);
    }
    return { peerServer: peer?.server ?? null, targets: rows, vsPeer };
  } finally {
    await Promise.all(children.map(stop));
    await peer?.close();
    closeSync(logFile);
  }
}

export function formatCreate({ peerServer, targets, vsPeer }: CreateResult): string {
  const rounds = targets[0]?.samples.length ?? 0;
  const lines = [
    `### Issue 42: create throughput against a plain Koa + zod + PostgreSQL peer, ${CONNECTIONS} connections (each in its own process; medians of ${rounds} rounds, ranges in brackets)`,
    '',
    peerServer ? `Peer: ${peerServer}; its CPU is the Node process's only, PostgreSQL's own processes not counted.` : 'Peer: skipped: no PostgreSQL',
    '',
    '| create | creates/s | p50 ms | p99 ms | server CPU µs/create, all threads |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const { target, samples } of targets) {
    const of = (pick: (sample: Sample) => number) => spread(samples.map(pick));
    lines.push(
      `| ${target} | ${show(of((s) => s.perSecond))} | ${show(
        of((s) => s.p50Ms),
        fixed(1),
      )} | ${show(
        of((s) => s.p99Ms),
        fixed(1),
      )} | ${show(of((s) => s.serverCpuMicros))} |`,
    );
  }
  lines.push(
    '',
    '| target | measured | issue 42 target |',
    '|---|---:|---:|',
    `| create throughput, durable node / peer | ${vsPeer.length > 0 ? show(spread(vsPeer), fixed(3)) : 'skipped: no PostgreSQL'} | ≥ 1.0 |`,
  );
  for (const [target, goal] of [
    [MEMORY_CREATE, '≤ 450 µs'],
    [DURABLE_CREATE, '≤ 550 µs'],
  ] as const) {
    const row = targets.find((candidate) => candidate.target === target)!;
    lines.push(`| CPU per create, ${target} | ${show(spread(row.samples.map((s) => s.serverCpuMicros)))} µs | ${goal} |`);
  }
  return lines.join('\n');
}

// --- the hosted read against hello world ---

export interface ReadResult {
  levels: Array<{ connections: number; hello: Sample[]; read: Sample[]; ratio: number[] }>;
}

export async function hostedReadBenchmark({ seconds, rounds }: OneNodeSettings): Promise<ReadResult> {
  const dir = scratch();
  const logFile = logs(dir);
  const children: Child[] = [];
  try {
    const hello = await start('./hello-node.ts', { stdout: 'ignore' });
    children.push(hello);
    const node = await startNodeWithOrder({ logFile, dataDir: join(dir, 'durable') });
    children.push(node.child);
    const readUrl = `${node.child.url}/api/v1/orders/${node.orderId}`;
    await load(hello, `${hello.url}/`, READ_LEVELS[0]!, WARM_UP_SECONDS);
    await load(node.child, readUrl, READ_LEVELS[0]!, WARM_UP_SECONDS);
    const levels: ReadResult['levels'] = [];
    for (const connections of READ_LEVELS) {
      const level = { connections, hello: [] as Sample[], read: [] as Sample[], ratio: [] as number[] };
      for (let round = 0; round < rounds; round++) {
        const base = await load(hello, `${hello.url}/`, connections, seconds);
        const read = await load(node.child, readUrl, connections, seconds);
        level.hello.push(base);
        level.read.push(read);
        level.ratio.push(read.perSecond / base.perSecond);
      }
      levels.push(level);
    }
    return { levels };
  } finally {
    await Promise.all(children.map(stop));
    closeSync(logFile);
  }
}

export function formatHostedRead({ levels }: ReadResult): string {
  const lines = [
    `### Issue 42: hosted read GET /api/v1/orders/{id} on a durable node against a Koa hello world (each in its own process; medians of ${levels[0]?.ratio.length ?? 0} rounds, ranges in brackets)`,
    '',
    '| connections | hello req/s | read req/s | read p99 ms | read CPU µs/req | read / hello (target ≥ 0.40) |',
    '|---:|---:|---:|---:|---:|---:|',
  ];
  for (const { connections, hello, read, ratio } of levels) {
    lines.push(
      `| ${connections} | ${show(spread(hello.map((s) => s.perSecond)))} | ${show(spread(read.map((s) => s.perSecond)))} | ${show(spread(read.map((s) => s.p99Ms)), fixed(1))} | ${show(spread(read.map((s) => s.serverCpuMicros)))} | ${show(spread(ratio), fixed(3))} |`,
    );
  }
  return lines.join('\n');
}

// --- heap per held order ---

export interface HeapRow {
  store: string;
  orders: number;
  /** Heap in use after forced collections, one per round. */
  bytesPerOrder: number[];
}

/** Creates `amount` orders over `connections`; throws on any answer that is not a 2xx. */
async function createMany(url: string, create: LoadOptions, amount: number, connections = CONNECTIONS): Promise<void> {
  const result = await autocannon({ url: `${url}/api/v1/orders`, connections, amount, timeout: 60, ...create });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`creates: ${result.non2xx} non-2xx and ${result.errors} errors`);
}

export async function heapBenchmark({ heapOrders, rounds }: OneNodeSettings): Promise<HeapRow[]> {
  const dir = scratch();
  const logFile = logs(dir);
  const rows: HeapRow[] = [];
  try {
    for (const [store, dataDir] of [
      ['in memory', undefined],
      ['durable (DATA_DIR)', join(dir, 'durable')],
    ] as const) {
      const row: HeapRow = { store, orders: heapOrders, bytesPerOrder: [] };
      const node = await startNodeWithOrder({ logFile, dataDir, exposeGc: true });
      try {
        // Warm: the first creates compile code and fill caches that later ones do not grow.
        await createMany(node.child.url, node.create, 500);
        for (let round = 0; round < rounds; round++) {
          const before = await collectedHeapBytes(node.child.process);
          await createMany(node.child.url, node.create, heapOrders);
          const after = await collectedHeapBytes(node.child.process);
          row.bytesPerOrder.push((after - before) / heapOrders);
        }
      } finally {
        await stop(node.child);
      }
      rows.push(row);
    }
    return rows;
  } finally {
    closeSync(logFile);
  }
}

export function formatHeap(rows: HeapRow[]): string {
  const lines = [
    `### Issue 42: V8 heap per order held (heap in use after forced collections, after N creates minus before, over N; medians of ${rows[0]?.bytesPerOrder.length ?? 0} rounds)`,
    '',
    '| store | N orders a round | heap KB per order (target ≤ 3 KB) |',
    '|---|---:|---:|',
  ];
  for (const row of rows) lines.push(`| ${row.store} | ${int(row.orders)} | ${show(spread(row.bytesPerOrder.map((bytes) => bytes / 1024)), fixed(2))} |`);
  return lines.join('\n');
}

// --- the big folder: restart, the create tail, the search of every order ---

let bigFolder: Promise<BigFolder> | null = null;

/**
 * The run's big folder, built once: in BENCH_BIG_FOLDER where it names one (kept after
 * the run, and topped up through the order kind where it holds fewer than BENCH_ORDERS),
 * else in a scratch folder.
 */
export function theBigFolder({ orders }: OneNodeSettings): Promise<BigFolder> {
  bigFolder ??= (async () => {
    const named = process.env.BENCH_BIG_FOLDER;
    const dir = named ? resolve(named) : join(scratch(), 'big');
    const held = readBigFolder(dir)?.orders ?? 0;
    if (held >= orders) return readBigFolder(dir)!;
    mkdirSync(dir, { recursive: true });
    const started = performance.now();
    const folder = await buildBigFolder({ dir, orders });
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(`built ${dir} up to ${int(orders)} orders in ${seconds.toFixed(0)} s (${int((orders - held) / seconds)} creates/s)\n`);
    return folder;
  })();
  return bigFolder;
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? folderBytes(path) : statSync(path).size;
  }
  return total;
}

export interface RestartResult {
  orders: number;
  folderBytes: number;
  sinceProcessStartMs: number[];
  startNodeMs: number[];
  firstPageMs: number[];
}

export async function restartBenchmark(settings: OneNodeSettings): Promise<RestartResult> {
  const folder = await theBigFolder(settings);
  const result: RestartResult = { orders: folder.orders, folderBytes: folderBytes(folder.dir), sinceProcessStartMs: [], startNodeMs: [], firstPageMs: [] };
  for (let round = 0; round < settings.rounds; round++) {
    const child = await startBenchNode({ logFile: 'ignore', dataDir: folder.dir });
    try {
      const ready = nodeReady(child);
      result.sinceProcessStartMs.push(ready.sinceProcessStartMs);
      result.startNodeMs.push(ready.startNodeMs);
      const asked = performance.now();
      const page = await call(`${child.url}/api/v1/merchants/me/orders`, { method: 'GET', headers: { 'x-api-key': folder.liveKey } });
      result.firstPageMs.push(performance.now() - asked);
      if (page.orders.length === 0) throw new Error('the first order-list page after the restart is empty');
    } finally {
      await stop(child);
    }
  }
  return result;
}

export function formatRestart(result: RestartResult): string {
  return [
    `### Issue 42: restart of a durable node over a data folder built through the order kind (fresh process; medians of ${result.startNodeMs.length} rounds)`,
    '',
    '| orders | folder MiB | startNode to ready ms (target ≤ 10,000 at 1,000,000) | process start to ready ms | first order-list page ms |',
    '|---:|---:|---:|---:|---:|',
    `| ${int(result.orders)} | ${(result.folderBytes / 2 ** 20).toFixed(1)} | ${show(spread(result.startNodeMs))} | ${show(spread(result.sinceProcessStartMs))} | ${show(spread(result.firstPageMs), fixed(1))} |`,
  ].join('\n');
}

export interface TailResult {
  orders: number;
  samples: OpenLoopSample[];
}

export async function tailBenchmark(settings: OneNodeSettings): Promise<TailResult> {
  const folder = await theBigFolder(settings);
  const orders = folder.orders;
  const child = await startBenchNode({ logFile: 'ignore', dataDir: folder.dir });
  const { method, headers, body } = createRequest(folder.liveKey);
  const target = { url: `${child.url}/api/v1/orders`, method: method!, headers: headers!, body: body! };
  const samples: OpenLoopSample[] = [];
  try {
    // Not counted: the first creates after a start compile code.
    await openLoop(target, settings.tailRate, WARM_UP_SECONDS);
    folder.orders += Math.round(settings.tailRate * WARM_UP_SECONDS);
    for (let round = 0; round < settings.rounds; round++) {
      samples.push(await openLoop(target, settings.tailRate, settings.tailSeconds));
      folder.orders += Math.round(settings.tailRate * settings.tailSeconds);
    }
  } finally {
    await stop(child);
    writeBigFolder(folder);
  }
  return { orders, samples };
}

export function formatTail({ orders, samples }: TailResult): string {
  const { rate } = samples[0]!;
  const seconds = (pick: (sample: OpenLoopSample) => number, format = fixed(1)) => show(spread(samples.map(pick)), format);
  return [
    `### Issue 42: creates open loop at ${int(rate)}/s on a durable node already holding ${int(orders)} orders (each timed from when it was due; medians of ${samples.length} rounds)`,
    '',
    '| asked/s | answered/s | p50 ms | p90 ms | p99 ms (target ≤ 25) | max ms (target ≤ 100) |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${int(rate)} | ${seconds((s) => s.answeredPerSecond, int)} | ${seconds((s) => s.p50Ms)} | ${seconds((s) => s.p90Ms)} | ${seconds((s) => s.p99Ms)} | ${seconds((s) => s.maxMs)} |`,
  ].join('\n');
}

export interface SearchResult {
  big: { orders: number; samples: LoadResult[] };
  small: { orders: number; samples: LoadResult[] };
  ratio: number[];
}

/** `bench` is in every order's notes, so the search matches every order its merchant has. */
const SEARCH_ALL = '/api/v1/merchants/me/orders?search=bench';

async function searchLoad(url: string, liveKey: string, seconds: number): Promise<LoadResult> {
  // node:http on a kept-alive agent: fetch costs the bench's process several times as much a request.
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const search = { url: `${url}${SEARCH_ALL}`, method: 'GET' as const, headers: { 'x-api-key': liveKey } };
  try {
    return await timedLoop(() => send(agent, search), CONNECTIONS, seconds);
  } finally {
    agent.destroy();
  }
}

export async function searchBenchmark(settings: OneNodeSettings): Promise<SearchResult> {
  const folder = await theBigFolder(settings);
  const child = await startBenchNode({ logFile: 'ignore', dataDir: folder.dir });
  try {
    const small = await addMerchant(child.url);
    await createMany(child.url, small.create, settings.smallOrders);
    const result: SearchResult = { big: { orders: folder.orders, samples: [] }, small: { orders: settings.smallOrders, samples: [] }, ratio: [] };
    await searchLoad(child.url, small.liveKey, WARM_UP_SECONDS);
    for (let round = 0; round < settings.rounds; round++) {
      const base = await searchLoad(child.url, small.liveKey, settings.seconds);
      const big = await searchLoad(child.url, folder.liveKey, settings.seconds);
      result.small.samples.push(base);
      result.big.samples.push(big);
      result.ratio.push(big.perSecond / base.perSecond);
    }
    return result;
  } finally {
    await stop(child);
  }
}

export function formatSearch({ big, small, ratio }: SearchResult): string {
  const lines = [
    `### Issue 42: order search matching every order of the merchant (${SEARCH_ALL}), ${CONNECTIONS} connections, on one durable node (medians of ${ratio.length} rounds)`,
    '',
    "| merchant's orders | req/s | p50 ms | p99 ms |",
    '|---:|---:|---:|---:|',
  ];
  for (const { orders, samples } of [small, big]) {
    lines.push(
      `| ${int(orders)} | ${show(spread(samples.map((s) => s.perSecond)), fixed(1))} | ${show(spread(samples.map((s) => s.p50Ms)))} | ${show(spread(samples.map((s) => s.p99Ms)))} |`,
    );
  }
  lines.push('', `Rate at ${int(big.orders)} over the rate at ${int(small.orders)}: ${show(spread(ratio), fixed(4))} (target ≥ 0.2 at 100,000 against 100).`);
  return lines.join('\n');
}
