/**
 * The LMDB engine's indexes answer as a scan does: the randomized order-list
 * equivalence the in-memory tables are held to (order-queries.ts), the index walks
 * counted (only the page, the posting intersection, the rows in range of each shard),
 * and the key codec held to mingo's order.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import fc from 'fast-check';
import { compare } from 'mingo/util';
import type { DiskStore } from '../../../../actors/store/disk/disk-store.js';
import { fieldBytes } from '../../../../actors/store/disk/index-key.js';
import { manyDocumentsAgree, randomHistoriesAgree } from '../order-queries.js';
import { EmbeddedStore } from '../../../../actors/store/embedded-store.js';
import type { Collection, CollectionSpec, StoredDocument } from '../../../../actors/store/store.js';

const root = mkdtempSync(join(tmpdir(), 'peer-disk-indexes-'));
let opened: Promise<DiskStore> | undefined;
const store = () => (opened ??= EmbeddedStore.open({ dataDir: join(root, 'shared') }));
test.after.always(async () => {
  await (await opened)?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Inserts concurrently, so a batch shares its syncs as a busy node's writes do. */
async function insertAll(collection: Collection, docs: StoredDocument[]): Promise<void> {
  for (let i = 0; i < docs.length; i += 500) await Promise.all(docs.slice(i, i + 500).map((doc) => collection.insertOne(doc)));
}

const counter = () => {
  const tally = { evaluated: 0 };
  return { tally, counting: { $function: { body: () => ++tally.evaluated > 0, args: [], lang: 'js' } } };
};

test('disk: index keys order as mingo compares, both directions', (t) => {
  const value = fc.oneof(
    fc.constant(null),
    fc.double({ noNaN: true }),
    fc.integer(),
    fc.string({ unit: 'binary' }),
    fc.boolean(),
    fc.date({ noInvalidDate: true }),
  );
  fc.assert(
    fc.property(value, value, fc.constantFrom(1 as const, -1 as const), (a, b, direction) => {
      const expected = Math.sign(compare(a, b)) * direction;
      return Math.sign(Buffer.compare(fieldBytes(a, direction)!, fieldBytes(b, direction)!)) === (expected === 0 ? 0 : expected);
    }),
    { numRuns: 5_000 },
  );
  t.is(fieldBytes([1], 1), null, 'an array has no single place');
  t.is(fieldBytes(Number.NaN, 1), null);
  t.is(fieldBytes({ a: 1 }, -1), null);
});

test('disk: ordered indexes answer finds and counts as a scan does, through random writes', async (t) => {
  await randomHistoriesAgree(t, store, 100);
  t.pass();
});

test('disk: ordered indexes answer finds and counts as a scan does, over thousands of documents', async (t) => {
  await manyDocumentsAgree(t, await store(), 2_000, insertAll);
  t.pass();
});

test('disk: a page of the newest by an indexed field reads only the page; `$all` reads only the intersection', async (t) => {
  const collection = await (await store()).collection({ name: 'listing', indexes: [{ key: { owner: 1, createdAt: -1 } }, { key: { grams: 1 } }] });
  const rows = Array.from({ length: 20_000 }, (_, i) => ({
    _id: `row-${i}`,
    owner: i % 100 === 7 ? 'target' : `owner-${i % 99}`,
    createdAt: (i * 7_919) % 20_000,
    grams: i % 1_000 === 999 ? null : ['all', `m${i % 100}`, `k${i % 7}`],
  }));
  await insertAll(collection, rows);
  const expected = rows
    .filter((row) => row.owner === 'target')
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, 20);
  const { tally, counting } = counter();
  t.deepEqual(await collection.find({ $expr: counting, owner: 'target' }, { sort: { createdAt: -1 }, limit: 20 }), expected);
  t.is(tally.evaluated, 20, 'the walk of the index reads only the page');
  tally.evaluated = 0;
  t.deepEqual(await collection.find({ $expr: counting, owner: 'target' }, { sort: { createdAt: 1 }, skip: 180, limit: 20 }), [...expected].reverse());
  t.is(tally.evaluated, 200, 'the walk runs backwards for the reverse order');

  const matches = rows.filter((row) => row.grams?.includes('m42') && row.grams.includes('k3')).length;
  tally.evaluated = 0;
  t.is(await collection.count({ $expr: counting, grams: { $all: ['all', 'k3', 'm42'] } }), matches);
  t.is(tally.evaluated, matches, 'the intersection of the postings is read, not the 20,000 documents');
  tally.evaluated = 0;
  t.is(await collection.count({ $expr: counting, grams: { $all: ['all', 'none'] } }), 0);
  t.is(tally.evaluated, 0, 'a value no document holds ends the search before any document is read');
  t.is(await collection.count({ owner: 'target' }, { limit: 50 }), 50, 'a capped count stops at its cap');
});

test('disk: due timers over every shard come from the shard-and-time index, not a scan', async (t) => {
  const collection = await (await store()).collection<{ _id: string; shard: number; nextTimerAt: number | null }>({
    name: 'actors',
    indexes: [{ key: { shard: 1, nextTimerAt: 1 }, name: 'timers_by_shard' }],
  });
  const now = 1_000_000;
  const docs = Array.from({ length: 20_000 }, (_, i) => ({
    _id: `a${i}`,
    shard: i % 64,
    nextTimerAt: i % 3 === 0 ? null : i % 1_000 === 1 ? now - i : now + i,
  }));
  await insertAll(collection, docs);
  const due = docs.filter((doc) => doc.nextTimerAt !== null && doc.nextTimerAt <= now).sort((a, b) => a.nextTimerAt! - b.nextTimerAt!);
  const { tally, counting } = counter();
  t.deepEqual(await collection.find({ $expr: counting, nextTimerAt: { $ne: null, $lte: now }, clockId: null }, { sort: { nextTimerAt: 1 }, limit: 500 }), due);
  t.is(tally.evaluated, due.length, 'only the rows in range of each shard are read');
});

test('disk: indexes are kept on disk: a reopened store answers from them without rebuilding', async (t) => {
  const dataDir = join(root, 'reopen');
  const first = await EmbeddedStore.open({ dataDir });
  const spec: CollectionSpec = { name: 'kept', indexes: [{ key: { owner: 1, at: -1 } }, { key: { tag: 1 }, unique: true }] };
  await insertAll(
    await first.collection(spec),
    Array.from({ length: 2_000 }, (_, i) => ({ _id: `k${i}`, owner: `o${i % 4}`, at: i, tag: `t${i}` })),
  );
  await first.close();
  const again = await EmbeddedStore.open({ dataDir });
  const started = performance.now();
  const kept = await again.collection(spec);
  const declared = performance.now() - started;
  const { tally, counting } = counter();
  t.deepEqual(
    (await kept.find({ $expr: counting, owner: 'o1' }, { sort: { at: -1 }, limit: 3 })).map((doc) => doc._id),
    ['k1997', 'k1993', 'k1989'],
  );
  t.is(tally.evaluated, 3);
  await t.throwsAsync(kept.insertOne({ _id: 'dup', owner: 'o0', at: 0, tag: 't5' }), { message: /duplicate key/ });
  t.log(`declaring the kept collection took ${declared.toFixed(1)} ms`);
  await again.close();
});

test('disk: a filter pinning every field of a unique index reads only the one document it can hold', async (t) => {
  const collection = await (await store()).collection({
    name: 'keyed',
    indexes: [
      { key: { merchantId: 1, environment: 1, createdAt: -1 } },
      { key: { merchantId: 1, environment: 1, key: 1 }, unique: true, partialFilterExpression: { key: { $type: 'string' } } },
      { key: { code: 1 }, unique: true, partialFilterExpression: { live: true } },
    ],
  });
  await insertAll(
    collection,
    Array.from({ length: 3_000 }, (_, i) => ({
      _id: `o${i}`,
      merchantId: 'm',
      environment: 'LIVE',
      createdAt: i,
      key: i % 10 ? `k${i}` : null,
      code: `c${i % 2}`,
      live: i < 2,
    })),
  );
  const { tally, counting } = counter();
  t.is((await collection.findOne({ $expr: counting, merchantId: 'm', environment: 'LIVE', key: 'k1234' }))?._id, 'o1234');
  t.is(tally.evaluated, 1, 'the unique key leads to its owner');
  t.is(await collection.findOne({ merchantId: 'm', environment: 'LIVE', key: 'k10' }), null, 'a key nobody holds');
  t.is(await collection.count({ merchantId: 'm', environment: 'LIVE', key: null }), 300, 'null is outside the partial index: the documents are read');
  t.is(await collection.count({ code: 'c0' }), 1_500, 'a partial filter on another field says nothing of documents outside it');
});
