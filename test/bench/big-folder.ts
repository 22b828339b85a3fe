/**
 * A data folder holding many orders, made through the real order kind: a durable node
 * (gateway-node.ts over DATA_DIR, the store `npm start` opens) takes creates over HTTP
 * from many connections at once, so every order, its history and its events are what
 * a create leaves, not copies of one document. The folder's merchant is kept in
 * bench-folder.json beside the store, so a later run (or a later build adding orders)
 * can find its orders.
 */
import autocannon from 'autocannon';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { addMerchant, createRequest, startBenchNode } from './bench-node.js';
import { stop } from './children.js';

const MANIFEST = 'bench-folder.json';
/** Creates sent per autocannon run; progress is printed between runs. */
const BATCH = 5_000;

export interface BigFolder {
  dir: string;
  /** Orders the folder's merchant holds. */
  orders: number;
  merchantId: string;
  liveKey: string;
}

export interface BuildOptions {
  dir: string;
  orders: number;
  connections?: number;
  /** Where progress lines go; none without it. */
  progress?: (line: string) => void;
}

/** The folder in `dir` as a build left it, or null where none was built there. */
export function readBigFolder(dir: string): BigFolder | null {
  const file = join(dir, MANIFEST);
  if (!existsSync(file)) return null;
  return { ...(JSON.parse(readFileSync(file, 'utf8')) as Omit<BigFolder, 'dir'>), dir };
}

export function writeBigFolder(folder: BigFolder): void {
  const { dir, ...manifest } = folder;
  writeFileSync(join(dir, MANIFEST), `${JSON.stringify(manifest)}\n`);
}

/** Creates orders in `dir` until its merchant holds `orders` (a fresh folder gets a merchant first); the node is drained before it returns. */
export async function buildBigFolder({ dir, orders, connections = 64, progress }: BuildOptions): Promise<BigFolder> {
  const node = await startBenchNode({ logFile: 'ignore', dataDir: dir });
  try {
    const folder = readBigFolder(dir) ?? (await newFolder(dir, node.url));
    const { method, headers, body } = createRequest(folder.liveKey);
    const started = performance.now();
    const from = folder.orders;
    while (folder.orders < orders) {
      const amount = Math.min(BATCH, orders - folder.orders);
      const batchStarted = performance.now();
      const result = await autocannon({
        url: `${node.url}/api/v1/orders`,
        connections: Math.min(connections, amount),
        amount,
        method,
        headers,
        body,
        timeout: 60,
      });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`creates failed: ${result.non2xx} non-2xx and ${result.errors} errors`);
      folder.orders += amount;
      writeBigFolder(folder);
      const made = folder.orders - from;
      progress?.(
        `${folder.orders.toLocaleString('en-US')} orders; ${Math.round(amount / ((performance.now() - batchStarted) / 1000))}/s now, ${Math.round(made / ((performance.now() - started) / 1000))}/s overall`,
      );
    }
    return folder;
  } finally {
    await stop(node);
  }
}

async function newFolder(dir: string, url: string): Promise<BigFolder> {
  const { id, liveKey } = await addMerchant(url);
  return { dir, orders: 0, merchantId: id, liveKey };
}
