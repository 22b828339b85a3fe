import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import fc from 'fast-check';
import { DuplicateKeyError } from '../../../actors/errors.js';
import type { DiskStore } from '../../../actors/store/disk/disk-store.js';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';
import type { Collection, IndexSpec, StoredDocument } from '../../../actors/store/store.js';
import { storeContract } from './contract.js';

const root = mkdtempSync(join(tmpdir(), 'peer-durable-test-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const folder = () => join(root, `store-${++folders}`);

let shared: Promise<DiskStore> | undefined;
storeContract('durable embedded', () => (shared ??= EmbeddedStore.open({ dataDir: folder() })));
test.after.always(async () => (await shared)?.close());

const ORDER_INDEXES: IndexSpec[] = [
  { key: { 'view.merchantId': 1, 'view.createdAt': -1 } },
  { key: { 'view.idempotencyKey': 1 }, unique: true, partialFilterExpression: { 'view.idempotencyKey': { $type: 'string' } } },
];

async function reopen<T extends StoredDocument>(dataDir: string, name: string, indexes: IndexSpec[] = []): Promise<[DiskStore, Collection<T>]> {
  const store = await EmbeddedStore.open({ dataDir });
  return [store, await store.collection<T>({ name, indexes })];
}

/** Values JSON alone would change or lose, each where a query would see the difference. */
const ODD_DOCUMENT = {
  _id: 'odd',
  at: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)),
  invalid: new Date(Number.NaN),
  amount: 12_345_678_901_234_567_890n,
  missing: undefined,
  list: [1, undefined, null, -0, Number.NaN, Number.POSITIVE_INFINITY],
  looksTagged: { $date: 1 },
  escaped: { $escape: { $bigint: '1' } },
  pattern: /a+b/gi,
  codec: { __bigint: '5' },
  nested: { when: [new Date(0)], deep: { n: -Infinity } },
};

test('durable: a reopened store holds exactly what the in-memory store held, Dates, bigints and undefined included', async (t) => {
  const dataDir = folder();
  const [store, collection] = await reopen(dataDir, 'odd');
  const memory = await new EmbeddedStore().collection({ name: 'odd', indexes: [] });
  for (const target of [collection, memory]) await target.insertOne(ODD_DOCUMENT);
  await store.close();
  const [again, reloaded] = await reopen(dataDir, 'odd');
  const [got, expected] = [await reloaded.findOne({ _id: 'odd' }), await memory.findOne({ _id: 'odd' })];
  t.deepEqual(got, expected);
  t.true(got!.at instanceof Date);
  t.true(Object.hasOwn(got!, 'missing'));
  t.true(Object.is((got!.list as unknown[])[3], -0));
  t.is(await reloaded.count({ at: { $gt: new Date(0) } }), 1, 'a Date still compares as a Date');
  await again.close();
});

test('durable: documents, deletes and unique indexes survive a reopen, and indexes declared after loading answer', async (t) => {
  const dataDir = folder();
  const [store, orders] = await reopen(dataDir, 'orders', ORDER_INDEXES);
  const docs = Array.from({ length: 300 }, (_, i) => ({
    _id: `ord_${i}`,
    view: {
      merchantId: `m${i % 3}`,
      createdAt: new Date(Date.UTC(2026, 0, 1) + ((i * 7_919) % 300) * 1000).toISOString(),
      idempotencyKey: i % 2 ? `key-${i}` : null,
    },
  }));
  await Promise.all(docs.map((doc) => orders.insertOne(doc)));
  t.true(await orders.deleteOne({ _id: 'ord_0' }));
  t.is(await orders.deleteMany({ 'view.merchantId': 'm1' }), 100);
  t.true(await orders.updateOne({ _id: 'ord_3' }, { $set: { 'view.merchantId': 'm2' } }));
  await store.close();

  const [again, reloaded] = await reopen<(typeof docs)[number]>(dataDir, 'orders', ORDER_INDEXES);
  t.is(await reloaded.count({}), 199);
  t.is(await reloaded.findOne({ _id: 'ord_0' }), null);
  t.is(await reloaded.count({ 'view.merchantId': 'm1' }), 0);
  t.is((await reloaded.findOne({ _id: 'ord_3' }))?.view.merchantId, 'm2');
  await t.throwsAsync(reloaded.insertOne({ _id: 'other', view: { merchantId: 'm0', createdAt: 'x', idempotencyKey: 'key-5' } }), {
    instanceOf: DuplicateKeyError,
  });
  const expected = docs
    .filter((doc) => doc.view.merchantId === 'm2' && doc._id !== 'ord_0')
    .concat([{ ...docs[3]!, view: { ...docs[3]!.view, merchantId: 'm2' } }])
    .sort((a, b) => b.view.createdAt.localeCompare(a.view.createdAt));
  t.deepEqual(
    (await reloaded.find({ 'view.merchantId': 'm2' }, { sort: { 'view.createdAt': -1 }, limit: 20 })).map((doc) => doc._id),
    expected.slice(0, 20).map((doc) => doc._id),
  );
  await again.close();
});

test('durable: a read waits until the writes it saw are durable', async (t) => {
  const [store, collection] = await reopen(folder(), 'barrier');
  const order: string[] = [];
  const write = collection.insertOne({ _id: 'w' }).then(() => order.push('write'));
  const read = collection.findOne({ _id: 'w' }).then((doc) => order.push(`read ${doc?._id}`));
  await Promise.all([write, read]);
  t.deepEqual(order, ['write', 'read w']);

  // A query could have seen the write; a lookup of another `_id` could not, and answers without waiting for the sync.
  order.length = 0;
  const second = collection.insertOne({ _id: 'x', n: 1 }).then(() => order.push('write'));
  const query = collection.findOne({ n: 1 }).then((doc) => order.push(`query ${doc?._id}`));
  const other = collection.findOne({ _id: 'w' }).then((doc) => order.push(`lookup ${doc?._id}`));
  await Promise.all([second, query, other]);
  t.deepEqual(order, ['lookup w', 'write', 'query x']);
  await store.close();
});

test('durable: a value the store cannot hold fails the write with nothing changed', async (t) => {
  const [store, collection] = await reopen(folder(), 'values');
  await t.throwsAsync(collection.insertOne({ _id: 'f', callback: new Map() } as StoredDocument), { instanceOf: TypeError });
  t.is(await collection.count({}), 0);
  await store.close();
});

test('durable: random writes leave a reopened store equal to an in-memory one', async (t) => {
  const operation = fc.oneof(
    fc.record({
      op: fc.constant('insert' as const),
      id: fc.integer({ min: 0, max: 15 }),
      value: fc.oneof(fc.integer(), fc.string(), fc.date({ noInvalidDate: true }), fc.bigInt()),
    }),
    fc.record({ op: fc.constant('set' as const), id: fc.integer({ min: 0, max: 15 }), value: fc.integer({ min: 0, max: 5 }) }),
    fc.record({ op: fc.constant('delete' as const), id: fc.integer({ min: 0, max: 15 }) }),
    fc.record({ op: fc.constant('deleteMany' as const), value: fc.integer({ min: 0, max: 5 }) }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { maxLength: 60 }), async (operations) => {
      const dataDir = folder();
      const [store, durable] = await reopen(dataDir, 'random');
      const memory = await new EmbeddedStore().collection({ name: 'random', indexes: [] });
      for (const op of operations) {
        for (const target of [durable, memory]) {
          if (op.op === 'insert') await target.insertOne({ _id: `r${op.id}`, value: op.value, n: op.id % 6 }).catch(() => undefined);
          else if (op.op === 'set') await target.updateOne({ _id: `r${op.id}` }, { $set: { n: op.value } });
          else if (op.op === 'delete') await target.deleteOne({ _id: `r${op.id}` });
          else await target.deleteMany({ n: op.value });
        }
      }
      await store.close();
      const [again, reloaded] = await reopen(dataDir, 'random');
      const same =
        JSON.stringify(await reloaded.find({}, { sort: { _id: 1 } }), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ===
        JSON.stringify(await memory.find({}, { sort: { _id: 1 } }), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
      await again.close();
      rmSync(dataDir, { recursive: true, force: true });
      return same;
    }),
    { numRuns: 40 },
  );
  t.pass();
});

const holder = fileURLToPath(new URL('../../support/hold-data-dir.ts', import.meta.url));

function holdFolder(dataDir: string) {
  const child = spawn(process.execPath, ['--import=tsx', holder, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => text.includes('ready') && resolve());
    child.once('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return { child, ready };
}

test('durable: a second process is refused the folder while the first lives, and takes it over once the first is SIGKILLed', async (t) => {
  t.timeout(30_000);
  const dataDir = folder();
  const { child, ready } = holdFolder(dataDir);
  await ready;
  const refused = await t.throwsAsync(EmbeddedStore.open({ dataDir }));
  t.true(refused?.message.includes(dataDir), refused?.message);
  t.true(refused?.message.includes(`process ${child.pid}`), refused?.message);

  child.kill('SIGKILL');
  await once(child, 'exit');
  const [store, held] = await reopen(dataDir, 'held');
  t.is((await held.findOne({ _id: 'pid' }))?.pid, child.pid, 'the killed process had made its write durable');
  await store.close();
  t.false(existsSync(join(dataDir, 'LOCK')), 'close releases the folder');
});

test('durable: one process cannot open the same folder twice, and close lets it open again', async (t) => {
  const dataDir = folder();
  const store = await EmbeddedStore.open({ dataDir });
  await t.throwsAsync(EmbeddedStore.open({ dataDir }), { message: new RegExp(`in use by process ${process.pid}`) });
  await store.close();
  await t.throwsAsync(store.collection({ name: 'x', indexes: [] }), { message: /closed/ });
  const again = await EmbeddedStore.open({ dataDir });
  await again.close();
  t.pass();
});
