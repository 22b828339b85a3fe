import test from 'ava';
import fc from 'fast-check';
import { SortedChunks } from '../../../actors/store/embedded/sorted-chunks.js';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';
import type { StoredDocument } from '../../../actors/store/store.js';
import { storeContract } from './contract.js';
import { manyDocumentsAgree, randomHistoriesAgree } from './order-queries.js';

storeContract('embedded', async () => new EmbeddedStore());

const TOTAL = 100_000;

interface Row extends StoredDocument {
  owner: string;
  /** Same values as `owner`, but not indexed. */
  group: string;
  createdAt: number;
}

/** 100 of the rows belong to owner 'target'; createdAt is a permutation of 0..TOTAL-1, so order is not insertion order. */
function row(i: number): Row {
  const owner = i % 1_000 === 7 ? 'target' : `owner-${i % 999}`;
  return { _id: `row-${i}`, owner, group: owner, createdAt: (i * 7_919) % TOTAL };
}

test('embedded: the 20 newest of 100,000 documents by an indexed field come from the index', async (t) => {
  const store = new EmbeddedStore();
  const collection = await store.collection<Row>({ name: 'listing', indexes: [{ key: { owner: 1, createdAt: -1 } }] });
  const rows = Array.from({ length: TOTAL }, (_, i) => row(i));
  for (const doc of rows) await collection.insertOne(doc);

  const expected = rows
    .filter((doc) => doc.owner === 'target')
    .sort((a, b) => b.createdAt - a.createdAt)
    .slice(0, 20);
  t.is(expected.length, 20);
  t.deepEqual(await collection.find({ owner: 'target' }, { sort: { createdAt: -1 }, limit: 20 }), expected);
  t.is(await collection.count({ owner: 'target' }), 100);

  // Deterministic stand-in for timing: count how many documents the filter is evaluated
  // on. `$expr` comes first so mingo evaluates it before the equality on each candidate.
  let evaluated = 0;
  const counting = { $function: { body: () => ++evaluated > 0, args: [], lang: 'js' } };
  await collection.find({ $expr: counting, owner: 'target' }, { sort: { createdAt: -1 }, limit: 20 });
  t.is(evaluated, 20, 'the walk of the index reads only the page');

  evaluated = 0;
  t.deepEqual(await collection.find({ $expr: counting, owner: 'target' }, { sort: { createdAt: 1 }, skip: 80, limit: 20 }), [...expected].reverse());
  t.is(evaluated, 100, 'the walk runs backwards for the reverse order, reading what it skips');

  evaluated = 0;
  t.is(await collection.count({ $expr: counting, owner: 'target' }), 100);
  t.is(evaluated, 100, 'a count the span cannot answer alone evaluates the span');

  evaluated = 0;
  t.deepEqual(await collection.find({ $expr: counting, group: 'target' }, { sort: { createdAt: -1 }, limit: 20 }), expected);
  t.is(evaluated, TOTAL, 'an unindexed field scans every document');
});

test('embedded: `$all` over a multikey index reads only the documents holding every value', async (t) => {
  const store = new EmbeddedStore();
  const collection = await store.collection({ name: 'grams', indexes: [{ key: { grams: 1 } }] });
  // Every document holds 'all', one in 100 a given 'm…', one in 7 a given 'k…'; every 1,000th has no grams.
  const docs = Array.from({ length: 20_000 }, (_, i) => ({ _id: `g${i}`, grams: i % 1_000 === 999 ? null : ['all', `m${i % 100}`, `k${i % 7}`] }));
  for (const doc of docs) await collection.insertOne(doc);
  const matches = docs.filter((doc) => doc.grams?.includes('m42') && doc.grams.includes('k3')).length;
  const unindexed = docs.filter((doc) => doc.grams === null).length;

  let evaluated = 0;
  const counting = { $function: { body: () => ++evaluated > 0, args: [], lang: 'js' } };
  t.is(await collection.count({ $expr: counting, grams: { $all: ['all', 'k3', 'm42'] } }), matches);
  t.is(evaluated, matches, 'the intersection of the posting sets is read, not the 20,000 documents');

  evaluated = 0;
  const search = { $or: [{ grams: { $all: ['all', 'k3', 'm42'] } }, { grams: null }] };
  t.deepEqual(
    (await collection.find({ $expr: counting, ...search }, { sort: { _id: 1 } })).map((doc) => doc._id),
    docs
      .filter((doc) => doc.grams === null || (doc.grams.includes('m42') && doc.grams.includes('k3')))
      .map((doc) => doc._id)
      .sort(),
  );
  t.is(evaluated, matches + unindexed, 'an `$or` reads the union of its branches');

  evaluated = 0;
  t.is(await collection.count({ $expr: counting, grams: { $all: ['all', 'none'] } }), 0);
  t.is(evaluated, 0, 'a value no document holds ends the search before any document is read');
});

test('embedded: a closed store refuses further calls', async (t) => {
  const store = new EmbeddedStore();
  const collection = await store.collection({ name: 'closing', indexes: [] });
  await collection.insertOne({ _id: 'a' });
  await store.close();
  await t.throwsAsync(collection.findOne({ _id: 'a' }), { message: /closed/ });
  await t.throwsAsync(store.collection({ name: 'closing', indexes: [] }), { message: /closed/ });
  t.false((await store.status()).connected);
});

test('embedded: a sorted chunk list keeps order, bounds and counts through inserts and deletes', (t) => {
  const operation = fc.record({ insert: fc.boolean(), value: fc.integer({ min: 0, max: 60 }) });
  fc.assert(
    fc.property(fc.array(operation, { maxLength: 300 }), fc.integer({ min: 0, max: 61 }), fc.integer({ min: 0, max: 61 }), (operations, a, b) => {
      const list = new SortedChunks<number>((x, y) => x - y, 4);
      const reference = new Set<number>();
      for (const { insert, value } of operations) {
        if (!insert) t.is(list.delete(value), reference.delete(value));
        else if (!reference.has(value)) {
          list.insert(value);
          reference.add(value);
        }
      }
      const sorted = [...reference].sort((x, y) => x - y);
      const [low, high] = [Math.min(a, b), Math.max(a, b)];
      const from = list.boundary((value) => value < low);
      const to = list.boundary((value) => value < high);
      const inside = sorted.filter((value) => value >= low && value < high);
      t.deepEqual(
        [
          ...list.between(
            list.boundary(() => true),
            list.boundary(() => false),
          ),
        ],
        [],
        'an empty range',
      );
      t.deepEqual(
        [
          ...list.between(
            list.boundary(() => false),
            list.boundary(() => true),
          ),
        ],
        sorted,
      );
      t.deepEqual([...list.between(from, to)], inside);
      t.deepEqual([...list.between(from, to, true)], [...inside].reverse());
      t.is(list.countBetween(from, to), inside.length);
    }),
    { numRuns: 500 },
  );
});

test('embedded: a sorted chunk list takes runs in its own order or the reverse at its ends, among inserts in the middle', (t) => {
  const run = fc.record({
    from: fc.integer({ min: -500, max: 500 }),
    length: fc.integer({ min: 0, max: 40 }),
    step: fc.constantFrom(1, -1),
    shuffled: fc.boolean(),
  });
  fc.assert(
    fc.property(fc.array(run, { maxLength: 12 }), fc.array(fc.integer({ min: -600, max: 600 }), { maxLength: 40 }), (runs, deletes) => {
      const list = new SortedChunks<number>((x, y) => x - y, 4);
      const reference = new Set<number>();
      for (const { from, length, step, shuffled } of runs) {
        const values = Array.from({ length }, (_, i) => from + i * step);
        if (shuffled) values.reverse();
        for (const value of values) {
          if (reference.has(value)) continue;
          list.insert(value);
          reference.add(value);
        }
      }
      for (const value of deletes) t.is(list.delete(value), reference.delete(value));
      const all = [
        ...list.between(
          list.boundary(() => false),
          list.boundary(() => true),
        ),
      ];
      t.deepEqual(
        all,
        [...reference].sort((x, y) => x - y),
      );
    }),
    { numRuns: 500 },
  );
});

test('embedded: ordered indexes answer finds and counts as a scan does, through random writes', async (t) => {
  await randomHistoriesAgree(t, async () => new EmbeddedStore(), 300);
  t.pass();
});

test('embedded: ordered indexes answer finds and counts as a scan does, over thousands of documents', async (t) => {
  await manyDocumentsAgree(t, new EmbeddedStore(), 4_000, async (collection, docs) => {
    for (const doc of docs) await collection.insertOne(doc);
  });
  t.pass();
});

test('embedded: due timers over every shard come from the shard-and-time index, not a scan', async (t) => {
  // The timer pass's query on a node that owns every shard (actors/runtime/timer-scheduler.ts): `shard` is not pinned.
  const store = new EmbeddedStore();
  const collection = await store.collection<{ _id: string; shard: number; nextTimerAt: number | null }>({
    name: 'actors',
    indexes: [{ key: { shard: 1, nextTimerAt: 1 }, name: 'timers_by_shard' }],
  });
  const now = 1_000_000;
  const docs = Array.from({ length: TOTAL }, (_, i) => ({
    _id: `a${i}`,
    shard: i % 64,
    nextTimerAt: i % 3 === 0 ? null : i % 1_000 === 1 ? now - i : now + i,
  }));
  for (const doc of docs) await collection.insertOne(doc);
  const due = docs.filter((doc) => doc.nextTimerAt !== null && doc.nextTimerAt <= now).sort((a, b) => a.nextTimerAt! - b.nextTimerAt!);
  t.is(due.length, 67);

  let evaluated = 0;
  const counting = { $function: { body: () => ++evaluated > 0, args: [], lang: 'js' } };
  const found = await collection.find({ $expr: counting, nextTimerAt: { $ne: null, $lte: now }, clockId: null }, { sort: { nextTimerAt: 1 }, limit: 500 });
  t.deepEqual(found, due);
  t.is(evaluated, due.length, 'only the rows in range of each shard are read');

  evaluated = 0;
  const later = await collection.find({ $expr: counting, nextTimerAt: { $gt: now - 500, $lt: now + 10 } }, { sort: { nextTimerAt: -1 } });
  t.deepEqual(
    later.map((doc) => doc._id),
    docs
      .filter((doc) => doc.nextTimerAt !== null && doc.nextTimerAt > now - 500 && doc.nextTimerAt < now + 10)
      .sort((a, b) => b.nextTimerAt! - a.nextTimerAt!)
      .map((doc) => doc._id),
  );
  t.is(evaluated, later.length, 'exclusive bounds, the other direction');
});

interface Card extends StoredDocument {
  profile: { name: string };
  items: Array<{ n: number }>;
}

test('embedded: a handed-off document is kept as given, and under the tests a change to it afterwards throws', async (t) => {
  const store = new EmbeddedStore();
  const collection = await store.collection<Card>({ name: 'hand-off', indexes: [] });
  const first: Card = { _id: 'c1', profile: { name: 'first' }, items: [{ n: 1 }] };
  await collection.insertOne(first, { handOff: true });
  t.throws(
    () => {
      first.profile.name = 'changed';
    },
    { instanceOf: TypeError },
  );
  t.throws(() => first.items.push({ n: 2 }), { instanceOf: TypeError });

  // The next version shares the first one's items and brings a profile of its own: both end up frozen.
  const second: Card = { ...first, profile: { name: 'second' } };
  t.true(await collection.replaceOne({ _id: 'c1' }, second, { handOff: true }));
  t.throws(
    () => {
      second.profile.name = 'changed';
    },
    { instanceOf: TypeError },
  );
  t.throws(
    () => {
      second.items[0]!.n = 9;
    },
    { instanceOf: TypeError },
  );
  t.deepEqual(await collection.findOne({ _id: 'c1' }), { _id: 'c1', profile: { name: 'second' }, items: [{ n: 1 }] });

  const read = (await collection.findOne({ _id: 'c1' }))!;
  read.profile.name = 'a reader may change its copy';
  t.is((await collection.findOne({ _id: 'c1' }))!.profile.name, 'second', 'reads still copy out');
});

test('embedded: an indexed lookup tells a string from any other value, whatever the string holds', async (t) => {
  const store = new EmbeddedStore();
  const collection = await store.collection({ name: 'keys', indexes: [{ key: { v: 1 } }] });
  const values: unknown[] = [5, '5', 'd5', '\u0000d5', '\u0000s"5"', 's"5"', null, 'n', true, 't', ['5', 5]];
  for (const [i, v] of values.entries()) await collection.insertOne({ _id: `doc-${i}`, v });
  for (const [_i, v] of values.entries()) {
    if (Array.isArray(v)) continue;
    const found = (await collection.find({ v })).map((doc) => doc._id).sort();
    const expected = values.flatMap((other, j) => (other === v || (Array.isArray(other) && other.includes(v)) ? [`doc-${j}`] : [])).sort();
    t.deepEqual(found, expected, `v = ${JSON.stringify(v)}`);
  }
});
