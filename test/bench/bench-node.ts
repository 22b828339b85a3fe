/**
 * A node for the HTTP rows, started by gateway-node.ts in a process of its own as
 * `npm start` boots it: in memory, or durable over a data folder (DATA_DIR), and a
 * merchant made on it over the admin API.
 */
import type { CreateAblation } from './create-ablation.js';
import { start, type Child } from './children.js';
import { call, type LoadOptions } from './http-load.js';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const JSON_TYPE = { 'content-type': 'application/json' };

export interface NodeOptions {
  /** Where the node's stdout (its pino lines) goes. */
  logFile: number | 'ignore';
  profileDir?: string | undefined;
  ablation?: CreateAblation | undefined;
  /** A data folder: the node opens the durable store there as `npm start` does; in memory without one. */
  dataDir?: string | undefined;
  /** --expose-gc, so the node can be asked for its heap after a full collection (process-heap.ts). */
  exposeGc?: boolean;
}

/** The node's own timings, measured in its process and sent with its URL. */
export interface NodeReady {
  /** From the process's start (tsx and the imports included) to serving. */
  sinceProcessStartMs: number;
  /** startNode alone: the store opened, the actors and the gateway started. */
  startNodeMs: number;
}

export function startBenchNode(options: NodeOptions): Promise<Child> {
  const execArgv = [...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : []), ...(options.exposeGc ? ['--expose-gc'] : [])];
  return start('./gateway-node.ts', {
    stdout: options.logFile,
    env: {
      PORT: '0',
      PEER_ADMIN_TOKEN: ADMIN_TOKEN,
      RATE_LIMIT_PER_MINUTE: '1000000',
      INDEXER_ENABLED: 'false',
      ENCLAVE_ENABLED: 'false',
      ...(options.ablation ? { BENCH_ABLATION: options.ablation } : {}),
      ...(options.dataDir ? { DATA_DIR: options.dataDir, BENCH_DURABLE: '1' } : {}),
    },
    execArgv,
  });
}

export function nodeReady(child: Child): NodeReady {
  return child.ready as unknown as NodeReady;
}

let merchants = 0;

export interface BenchMerchant {
  id: string;
  liveKey: string;
  /** Its create request: a 25 USDC order with a SKU in its notes. */
  create: LoadOptions;
}

/** A merchant made over the admin API. */
export async function addMerchant(url: string): Promise<BenchMerchant> {
  merchants++;
  const merchant = await call(`${url}/internal/v1/merchants`, {
    method: 'POST',
    headers: { ...JSON_TYPE, authorization: `Bearer ${ADMIN_TOKEN}` },
    body: JSON.stringify({ name: `Bench ${merchants}`, tier: 'BASE', evmWalletAddress: '0x1111111111111111111111111111111111111111' }),
  });
  return { id: merchant.merchant.id, liveKey: merchant.liveApiKey, create: createRequest(merchant.liveApiKey) };
}

export function createRequest(liveKey: string): LoadOptions {
  return { method: 'POST', headers: { ...JSON_TYPE, 'x-api-key': liveKey }, body: JSON.stringify({ requestedUsdcAmount: '25', notes: { sku: 'bench' } }) };
}

export interface BenchNode {
  child: Child;
  /** The create request of a merchant made on this node. */
  create: LoadOptions;
  /** An order the first create made. */
  orderId: string;
}

/** A node with a merchant and one order made over HTTP. */
export async function startNodeWithOrder(options: NodeOptions): Promise<BenchNode> {
  const child = await startBenchNode(options);
  const { create } = await addMerchant(child.url);
  const created = await call(`${child.url}/api/v1/orders`, create);
  return { child, create, orderId: created.order.id };
}
