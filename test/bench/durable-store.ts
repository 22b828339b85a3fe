/**
 * The durable embedded store beside the in-memory one: conditional replaceOne turns
 * on order-sized actor documents (what every actor turn writes), and the start-up of
 * a node over a data folder holding 100,000 orders, timed in a fresh process. The order is made through the
 * API once and copied, as in order-list.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EmbeddedStore, actorCollectionSpec, type ActorDocument, type Collection, type Store } from '../../actors/index.js';
import { orderKind } from '../../actors/kinds/index.js';
import { startTestGateway } from '../support/gateway.js';
import { closedLoop, type Comparison } from './harness.js';

const LEVELS = [1, 16, 256];
const ACTORS = 1_000;

export interface StartupRow {
  orders: number;
  folderBytes: number;
  openMs: number;
  nodeReadyMs: number;
  firstPageMs: number;
}

async function orderTemplate(): Promise<ActorDocument> {
  const gateway = await startTestGateway();
  try {
    const merchant = await gateway.createMerchant();
    const created = await gateway.request('POST', '/api/v1/orders', { key: merchant.liveKey, body: { requestedUsdcAmount: '25', notes: { sku: 'bench' } } });
    return (await gateway.node.system.documents('order').findOne({ _id: created.body.responseObject.order.id }))!;
  } finally {
    await gateway.stop();
  }
}

function copyOf(template: ActorDocument, i: number): ActorDocument {
  const view = template.view as Record<string, any>;
  const id = `${template._id}_${i}`;
  const createdAt = new Date(Date.parse(view.createdAt) - i * 1000).toISOString();
  return { ...template, _id: id, view: { ...view, createdAt, idempotencyKey: null, order: { ...view.order, id, createdAt }, searchText: id.toLowerCase() } };
}

async function orders(store: Store): Promise<Collection<ActorDocument>> {
  return store.collection<ActorDocument>(actorCollectionSpec(orderKind.name, orderKind.viewIndexes));
}

/** Each call is a turn's write: replace an actor's document on the condition that its version is the one read. */
async function turns(store: Store, template: ActorDocument, inFlight: number, total: number) {
  const collection = await orders(store);
  const docs = Array.from({ length: ACTORS }, (_, i) => copyOf(template, i));
  await Promise.all(docs.map((doc) => collection.insertOne(doc)));
  // Workers never share an actor at one time, as one mailbox per actor guarantees.
  return closedLoop(
    async (i) => {
      const doc = docs[i % ACTORS]!;
      const next = { ...doc, version: doc.version + 1, updatedAt: i };
      if (!(await collection.replaceOne({ _id: doc._id, version: doc.version }, next))) throw new Error('lost a conditional write');
      docs[i % ACTORS] = next;
    },
    Math.min(inFlight, ACTORS),
    total,
  );
}

export async function durableWrites(total: number): Promise<Comparison> {
  const template = await orderTemplate();
  const root = mkdtempSync(join(tmpdir(), 'peer-bench-writes-'));
  const rows = [];
  try {
    for (const [n, inFlight] of LEVELS.entries()) {
      // One write in flight is one fsync per write, so that level runs fewer.
      const count = inFlight === 1 ? Math.min(total, 2_000) : total;
      const durable = await EmbeddedStore.open({ dataDir: join(root, `level-${n}`) });
      const subject = await turns(durable, template, inFlight, count);
      await durable.close();
      const base = await turns(new EmbeddedStore(), template, inFlight, count);
      rows.push({ subject, base });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  const size = Buffer.byteLength(JSON.stringify(template));
  return {
    name: `Durable embedded store: conditional replaceOne of a ${size}-byte order document (fdatasync, group commit)`,
    baseline: 'the in-memory embedded store',
    rows,
  };
}

export async function durableStartup(count: number): Promise<StartupRow> {
  const template = await orderTemplate();
  const dataDir = mkdtempSync(join(tmpdir(), 'peer-bench-startup-'));
  try {
    const filling = await EmbeddedStore.open({ dataDir });
    const collection = await orders(filling);
    for (let from = 0; from < count; from += 1_000) {
      await Promise.all(Array.from({ length: Math.min(1_000, count - from) }, (_, j) => collection.insertOne(copyOf(template, from + j))));
    }
    // As the writes left it: compaction ran on its own as the journal grew, so a snapshot and a journal.
    await filling.close();
    const folderBytes = readdirSync(dataDir).reduce((sum, name) => sum + statSync(join(dataDir, name)).size, 0);
    // A fresh process, as a restart is: this one still holds the documents it wrote.
    const merchantId = (template.view as { merchantId: string }).merchantId;
    const child = spawnSync(process.execPath, ['--import=tsx', fileURLToPath(new URL('./durable-startup-child.ts', import.meta.url)), dataDir, merchantId], {
      encoding: 'utf8',
    });
    if (child.status !== 0) throw new Error(`the start-up run failed: ${child.stderr}`);
    const timings = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Omit<StartupRow, 'orders' | 'folderBytes'> & { page: number };
    if (timings.page !== 20) throw new Error(`the first page after start-up holds ${timings.page} orders`);
    const { openMs, nodeReadyMs, firstPageMs } = timings;
    return { orders: count, folderBytes, openMs, nodeReadyMs, firstPageMs };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatStartup(row: StartupRow): string {
  return [
    '### Durable embedded store: start-up of a node over a data folder (fresh process; snapshot plus journal)',
    '',
    '| orders | folder MiB | store open (recovery) ms | node ready ms | first order-list page ms |',
    '|---:|---:|---:|---:|---:|',
    `| ${row.orders.toLocaleString('en-US')} | ${(row.folderBytes / 2 ** 20).toFixed(1)} | ${Math.round(row.openMs)} | ${Math.round(row.nodeReadyMs)} | ${row.firstPageMs.toFixed(1)} |`,
  ].join('\n');
}
