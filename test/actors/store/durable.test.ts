import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import fc from 'fast-check';
import { DuplicateKeyError } from '../../../actors/errors.js';
import { frame } from '../../../actors/store/durable/frames.js';
import { Journal } from '../../../actors/store/durable/journal.js';
import { putFrame } from '../../../actors/store/durable/records.js';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';
import type { Collection, IndexSpec, StoredDocument } from '../../../actors/store/store.js';
import { storeContract } from './contract.js';

const root = mkdtempSync(join(tmpdir(), 'peer-durable-test-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const folder = () => join(root, `store-${++folders}`);

let shared: Promise<EmbeddedStore> | undefined;
storeContract('durable embedded', () => (shared ??= EmbeddedStore.open({ dataDir: folder() })));
test.after.always(async () => (await shared)?.close());

const ORDER_INDEXES: IndexSpec[] = [
  { key: { 'view.merchantId': 1, 'view.createdAt': -1 } },
  { key: { 'view.idempotencyKey': 1 }, unique: true, partialFilterExpression: { 'view.idempotencyKey': { $type: 'string' } } },
];

async function reopen<T extends StoredDocument>(dataDir: string, name: string, indexes: IndexSpec[] = []): Promise<[EmbeddedStore, Collection<T>]> {
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

test('durable: a torn or damaged last record is dropped and cut off, and the store goes on from there', async (t) => {
  const dataDir = folder();
  const [store, collection] = await reopen(dataDir, 'torn');
  for (let i = 0; i < 10; i++) await collection.insertOne({ _id: `d${i}`, i });
  await store.close();
  const journal = join(dataDir, readdirSync(dataDir).find((name) => name.startsWith('journal-'))!);
  const whole = statSync(journal).size;

  // A record cut short, as a write interrupted by a crash leaves it.
  const next = putFrame('torn', { _id: 'd10', i: 10 });
  appendFileSync(journal, next.subarray(0, next.length - 3));
  let [again, reloaded] = await reopen(dataDir, 'torn');
  t.is(await reloaded.count({}), 10);
  t.is(statSync(journal).size, whole, 'the torn tail is cut off');
  await reloaded.insertOne({ _id: 'd10', i: 10 });
  await again.close();

  // A whole-length record whose bytes are wrong fails its checksum and is never read.
  const damaged = Buffer.from(putFrame('torn', { _id: 'd11', i: 11 }));
  damaged.writeUInt8(damaged.readUInt8(damaged.length - 2) ^ 0xff, damaged.length - 2);
  appendFileSync(journal, damaged);
  [again, reloaded] = await reopen(dataDir, 'torn');
  t.deepEqual(
    (await reloaded.find({}, { sort: { i: 1 } })).map((doc) => doc.i),
    Array.from({ length: 11 }, (_, i) => i),
  );
  await again.close();
});

test('durable: compaction writes a snapshot and a new segment, also under concurrent writes, and a reopen finds everything', async (t) => {
  const dataDir = folder();
  const store = await EmbeddedStore.open({ dataDir, compactAtBytes: 20_000 });
  const collection = await store.collection({ name: 'busy', indexes: [{ key: { n: 1 }, unique: true }] });
  // Enough writes for the journal to pass its threshold several times while writes continue.
  await Promise.all(Array.from({ length: 2_000 }, (_, i) => collection.insertOne({ _id: `b${i}`, n: i, pad: 'x'.repeat(50) })));
  await Promise.all(Array.from({ length: 500 }, (_, i) => collection.updateOne({ _id: `b${i}` }, { $inc: { n: 10_000 } })));
  await collection.deleteMany({ n: { $gte: 1_900, $lt: 2_000 } });
  const compaction = store.compact();
  await collection.insertOne({ _id: 'during', n: -1 });
  await compaction;
  await store.close();
  const names = readdirSync(dataDir).sort();
  t.is(names.filter((name) => name.startsWith('snapshot-')).length, 1, names.join(' '));
  t.is(names.filter((name) => name.startsWith('journal-')).length, 1, names.join(' '));
  t.false(names.some((name) => name.endsWith('.tmp')));

  const [again, reloaded] = await reopen(dataDir, 'busy', [{ key: { n: 1 }, unique: true }]);
  t.is(await reloaded.count({}), 1_901);
  t.is((await reloaded.findOne({ _id: 'b3' }))?.n, 10_003);
  t.truthy(await reloaded.findOne({ _id: 'during' }));
  t.is(await reloaded.count({ n: { $gte: 1_900, $lt: 2_000 } }), 0);
  await again.close();
});

test('durable: a compaction cut short by a crash leaves the previous snapshot and journals in charge', async (t) => {
  const dataDir = folder();
  const [store, collection] = await reopen(dataDir, 'crash');
  await collection.insertOne({ _id: 'a' });
  await store.compact();
  await collection.insertOne({ _id: 'b' });
  await store.close();
  // An unfinished snapshot of the next generation, as a kill before its rename leaves it.
  const temporary = join(dataDir, 'snapshot-000000000002.tmp');
  writeFileSync(temporary, frame('{"snapshot":2,"format":1}'));
  const [again, reloaded] = await reopen(dataDir, 'crash');
  t.deepEqual(
    (await reloaded.find({})).map((doc) => doc._id),
    ['a', 'b'],
  );
  t.false(existsSync(temporary));
  await again.close();
});

test('durable: a read waits until the writes it saw are durable', async (t) => {
  const [store, collection] = await reopen(folder(), 'barrier');
  const order: string[] = [];
  const write = collection.insertOne({ _id: 'w' }).then(() => order.push('write'));
  const read = collection.findOne({ _id: 'w' }).then((doc) => order.push(`read ${doc?._id}`));
  await Promise.all([write, read]);
  t.deepEqual(order, ['write', 'read w']);
  await store.close();
});

test('durable: a journal that fails rejects that write and every later one', async (t) => {
  const dataDir = folder();
  mkdirSync(dataDir);
  const journal = await Journal.open(join(dataDir, 'journal.log'), 0);
  await journal.append(frame('{"ok":1}'));
  // A segment that cannot be created: the batch carrying the switch fails, and so does the journal.
  const rotated = journal.rotate(join(dataDir, 'missing', 'journal.log'));
  const after = journal.append(frame('{"ok":2}'));
  await t.throwsAsync(rotated, { message: /refuses further calls/ });
  await t.throwsAsync(after, { message: /refuses further calls/ });
  await t.throwsAsync(journal.append(frame('{"ok":3}')), { message: /refuses further calls/ });
  t.truthy(journal.failure);
  await journal.close();
});

test('durable: a value the journal cannot hold fails the write with nothing changed', async (t) => {
  const [store, collection] = await reopen(folder(), 'values');
  await t.throwsAsync(collection.insertOne({ _id: 'f', callback: new Map() } as StoredDocument), { instanceOf: TypeError });
  t.is(await collection.count({}), 0);
  await store.close();
});

test('durable: random writes leave a reopened store equal to an in-memory one, order included', async (t) => {
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
    fc.asyncProperty(fc.array(operation, { maxLength: 60 }), fc.boolean(), async (operations, compact) => {
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
        if (compact && op.op === 'delete') await store.compact();
      }
      await store.close();
      const [again, reloaded] = await reopen(dataDir, 'random');
      const same =
        JSON.stringify(await reloaded.find({}), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)) ===
        JSON.stringify(await memory.find({}), (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
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
