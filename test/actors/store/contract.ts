/**
 * The behaviour every Store adapter owes the runtime, registered as ava tests against
 * whatever `open` returns. `open` may hand out one shared store; the suite never
 * closes it, and each test works in a collection of its own so tests run concurrently.
 */
import test, { type ExecutionContext } from 'ava';
import { DuplicateKeyError } from '../../../actors/errors.js';
import type { Collection, Filter, IndexSpec, Store, StoredDocument } from '../../../actors/store/store.js';

interface Person extends StoredDocument {
  name: string;
  age?: number;
  status?: string | null;
  note?: string | null;
  tags?: string[];
  address?: { city: string; zip?: string };
  orders?: { sku: string; qty: number }[];
}

interface Card extends StoredDocument {
  profile: { name: string };
  items: { n: number }[];
}

const PEOPLE: Person[] = [
  { _id: 'p1', name: 'Ada', age: 36, status: 'active', tags: ['math', 'code'], address: { city: 'London', zip: 'N1' }, orders: [{ sku: 'a', qty: 1 }] },
  {
    _id: 'p2',
    name: 'alan',
    age: 41,
    status: 'inactive',
    note: 'x',
    tags: ['code'],
    address: { city: 'Manchester' },
    orders: [
      { sku: 'b', qty: 2 },
      { sku: 'a', qty: 5 },
    ],
  },
  { _id: 'p3', name: 'Grace', age: 85, status: 'active', tags: [], address: { city: 'New York' } },
  { _id: 'p4', name: 'Edsger', age: 72, status: null, note: null, tags: ['math'] },
  { _id: 'p5', name: 'Barbara', status: 'active', address: { city: 'London' }, orders: [{ sku: 'c', qty: 3 }] },
];

export function storeContract(title: string, open: () => Promise<Store>): void {
  let collections = 0;

  async function fresh<T extends StoredDocument = StoredDocument>(label: string, indexes: IndexSpec[] = []): Promise<Collection<T>> {
    const store = await open();
    return store.collection<T>({ name: `contract_${label}_${++collections}`, indexes });
  }

  /** People, with indexes on some queried fields so an adapter's index paths answer too. */
  async function people(label: string): Promise<Collection<Person>> {
    const collection = await fresh<Person>(label, [{ key: { status: 1 } }, { key: { 'address.city': 1 } }, { key: { tags: 1 } }]);
    for (const person of PEOPLE) await collection.insertOne(person);
    return collection;
  }

  async function ids(collection: Collection<Person>, filter: Filter): Promise<string[]> {
    return (await collection.find(filter)).map((doc) => doc._id).sort();
  }

  async function rejectsDuplicate(t: ExecutionContext, collection: Collection, promise: Promise<unknown>, index: string): Promise<void> {
    const error = await t.throwsAsync(promise, { instanceOf: DuplicateKeyError });
    t.is(error?.collection, collection.name);
    t.true(error?.key.startsWith(index), `key ${error?.key} names index ${index}`);
  }

  test(`${title}: insertOne and findOne round-trip nested objects, arrays, nulls and numbers`, async (t) => {
    const collection = await fresh('roundtrip');
    const doc = {
      _id: 'doc-1',
      count: 0,
      negative: -12.5,
      big: 2 ** 53 - 1,
      flag: false,
      nothing: null,
      text: 'zürich ✓',
      at: new Date('2024-02-29T12:00:00.000Z'),
      list: [1, 'two', null, { three: [3] }],
      empty: { list: [], object: {} },
      nested: { deeper: { deepest: { value: 'ok', values: [[1, 2], [3]] } } },
    };
    await collection.insertOne(doc);
    t.deepEqual(await collection.findOne({ _id: 'doc-1' }), doc);
    t.is(await collection.findOne({ _id: 'missing' }), null);
  });

  test(`${title}: documents are copied in and out`, async (t) => {
    const collection = await fresh<Card>('isolation');
    const input = { _id: 'c1', profile: { name: 'before' }, items: [{ n: 1 }] };
    await collection.insertOne(input);
    input.profile.name = 'mutated input';
    input.items.push({ n: 2 });

    const output = await collection.findOne({ _id: 'c1' });
    t.deepEqual(output, { _id: 'c1', profile: { name: 'before' }, items: [{ n: 1 }] });
    output!.items[0]!.n = 99;
    const [listed] = await collection.find({});
    listed!.profile.name = 'mutated output';
    t.deepEqual(await collection.findOne({ _id: 'c1' }), { _id: 'c1', profile: { name: 'before' }, items: [{ n: 1 }] });

    const replacement: Card = { _id: 'c1', profile: { name: 'replaced' }, items: [] };
    t.true(await collection.replaceOne({ _id: 'c1' }, replacement));
    replacement.items.push({ n: 3 });
    const pushed = { n: 4 };
    t.true(await collection.updateOne({ _id: 'c1' }, { $push: { items: pushed } }));
    pushed.n = 5;

    t.deepEqual(await collection.findOne({ _id: 'c1' }), { _id: 'c1', profile: { name: 'replaced' }, items: [{ n: 4 }] });
  });

  test(`${title}: a duplicate _id is a DuplicateKeyError and leaves the first document`, async (t) => {
    const collection = await fresh('dup_id');
    await collection.insertOne({ _id: 'same', v: 1 });
    await rejectsDuplicate(t, collection, collection.insertOne({ _id: 'same', v: 2 }), '_id_');
    t.deepEqual(await collection.find({}), [{ _id: 'same', v: 1 }]);
  });

  test(`${title}: a unique index rejects colliding inserts, updates and replaces and changes nothing`, async (t) => {
    const collection = await fresh('unique', [{ key: { email: 1 }, unique: true, name: 'email_unique' }]);
    await collection.insertOne({ _id: 'u1', email: 'a@x', n: 1 });
    await collection.insertOne({ _id: 'u2', email: 'b@x', n: 2 });

    await rejectsDuplicate(t, collection, collection.insertOne({ _id: 'u3', email: 'a@x' }), 'email_unique');
    await rejectsDuplicate(t, collection, collection.updateOne({ _id: 'u2' }, { $set: { email: 'a@x', n: 20 } }), 'email_unique');
    await rejectsDuplicate(t, collection, collection.replaceOne({ _id: 'u2' }, { _id: 'u2', email: 'a@x', n: 30 }), 'email_unique');

    t.deepEqual(await collection.find({}, { sort: { _id: 1 } }), [
      { _id: 'u1', email: 'a@x', n: 1 },
      { _id: 'u2', email: 'b@x', n: 2 },
    ]);
    t.true(await collection.updateOne({ _id: 'u1' }, { $set: { email: 'a@x', n: 10 } }), 'a document does not collide with itself');
    t.true(await collection.replaceOne({ _id: 'u2' }, { _id: 'u2', email: 'c@x', n: 3 }));
    await collection.insertOne({ _id: 'u3', email: 'b@x' });
    t.is(await collection.count({}), 3);
  });

  test(`${title}: a unique index holds a missing field as null`, async (t) => {
    const collection = await fresh('unique_missing', [{ key: { email: 1 }, unique: true, name: 'email_unique' }]);
    await collection.insertOne({ _id: 'm1' });
    await rejectsDuplicate(t, collection, collection.insertOne({ _id: 'm2' }), 'email_unique');
    await rejectsDuplicate(t, collection, collection.insertOne({ _id: 'm3', email: null }), 'email_unique');
    t.is(await collection.count({}), 1);
  });

  test(`${title}: a partial unique index only holds matching documents to uniqueness`, async (t) => {
    const collection = await fresh('partial', [{ key: { handle: 1 }, unique: true, name: 'live_handle', partialFilterExpression: { live: true } }]);
    await collection.insertOne({ _id: 'h1', handle: 'ada', live: true });
    await collection.insertOne({ _id: 'h2', handle: 'ada', live: false });
    await collection.insertOne({ _id: 'h3', handle: 'ada' });
    await collection.insertOne({ _id: 'h4', handle: 'bob', live: true });

    await rejectsDuplicate(t, collection, collection.insertOne({ _id: 'h5', handle: 'ada', live: true }), 'live_handle');
    await rejectsDuplicate(t, collection, collection.updateOne({ _id: 'h2' }, { $set: { live: true } }), 'live_handle');
    await rejectsDuplicate(t, collection, collection.replaceOne({ _id: 'h4' }, { _id: 'h4', handle: 'ada', live: true }), 'live_handle');
    t.deepEqual(await collection.findOne({ _id: 'h2' }), { _id: 'h2', handle: 'ada', live: false });
    t.deepEqual(await collection.findOne({ _id: 'h4' }), { _id: 'h4', handle: 'bob', live: true });

    t.true(await collection.updateOne({ _id: 'h1' }, { $set: { live: false } }));
    t.true(await collection.updateOne({ _id: 'h2' }, { $set: { live: true } }), 'the handle is free once h1 leaves the index');
    t.is(await collection.count({ handle: 'ada' }), 3);
  });

  test(`${title}: find by equality and $in, also into arrays`, async (t) => {
    const collection = await people('find_eq');
    t.deepEqual(await ids(collection, { status: 'active' }), ['p1', 'p3', 'p5']);
    t.deepEqual(await ids(collection, { status: 'active', name: 'Ada' }), ['p1']);
    t.deepEqual(await ids(collection, { status: { $in: ['inactive', 'unknown'] } }), ['p2']);
    t.deepEqual(await ids(collection, { _id: { $in: ['p4', 'p2', 'nope'] } }), ['p2', 'p4']);
    t.deepEqual(await ids(collection, { tags: 'math' }), ['p1', 'p4'], 'equality matches an array element');
    t.deepEqual(await ids(collection, { tags: ['code'] }), ['p2'], 'equality matches a whole array');
    t.deepEqual(await ids(collection, { tags: { $in: ['code', 'art'] } }), ['p1', 'p2']);
    t.deepEqual(await ids(collection, { status: null }), ['p4'], 'null matches null but no other value');
    t.deepEqual(await ids(collection, { age: null }), ['p5'], 'null matches a missing field');
    t.deepEqual(await ids(collection, { status: 'nobody' }), []);
  });

  test(`${title}: find by ranges and $exists`, async (t) => {
    const collection = await people('find_range');
    t.deepEqual(await ids(collection, { age: { $gte: 41, $lte: 72 } }), ['p2', 'p4']);
    t.deepEqual(await ids(collection, { age: { $lte: 36 } }), ['p1']);
    t.deepEqual(await ids(collection, { age: { $gte: 80 } }), ['p3']);
    t.deepEqual(await ids(collection, { age: { $exists: false } }), ['p5']);
    t.deepEqual(await ids(collection, { orders: { $exists: true } }), ['p1', 'p2', 'p5']);
    t.deepEqual(await ids(collection, { note: { $exists: true } }), ['p2', 'p4'], 'a null field exists');
    t.deepEqual(await ids(collection, { note: null }), ['p1', 'p3', 'p4', 'p5'], 'null matches null and missing');
  });

  test(`${title}: find by dotted paths into subdocuments and arrays`, async (t) => {
    const collection = await people('find_paths');
    t.deepEqual(await ids(collection, { 'address.city': 'London' }), ['p1', 'p5']);
    t.deepEqual(await ids(collection, { 'address.zip': { $exists: true } }), ['p1']);
    t.deepEqual(await ids(collection, { 'orders.sku': 'a' }), ['p1', 'p2']);
    t.deepEqual(await ids(collection, { 'orders.qty': { $gte: 3 } }), ['p2', 'p5']);
    t.deepEqual(await ids(collection, { 'orders.0.sku': 'b' }), ['p2']);
    t.deepEqual(await ids(collection, { 'tags.1': 'code' }), ['p1']);
  });

  test(`${title}: find with $or and case-insensitive $regex`, async (t) => {
    const collection = await people('find_or');
    t.deepEqual(await ids(collection, { $or: [{ age: { $gt: 80 } }, { 'address.city': 'Manchester' }] }), ['p2', 'p3']);
    t.deepEqual(await ids(collection, { status: 'active', $or: [{ tags: 'math' }, { age: { $exists: false } }] }), ['p1', 'p5']);
    t.deepEqual(await ids(collection, { name: { $regex: '^a', $options: 'i' } }), ['p1', 'p2']);
    t.deepEqual(await ids(collection, { name: { $regex: '^a' } }), ['p2'], 'without the option the match is case-sensitive');
    t.deepEqual(await ids(collection, { 'address.city': { $regex: 'LON', $options: 'i' } }), ['p1', 'p5']);
  });

  test(`${title}: find sorts on several keys both ways, skips, limits and projects`, async (t) => {
    const collection = await fresh('sort');
    const rows = [
      { _id: 'r1', group: 'b', rank: 2 },
      { _id: 'r2', group: 'a', rank: 2 },
      { _id: 'r3', group: 'b', rank: 1 },
      { _id: 'r4', group: 'a', rank: 3 },
      { _id: 'r5', group: 'c', rank: 1 },
      { _id: 'r6', group: 'a', rank: 1 },
    ];
    for (const row of rows) await collection.insertOne(row);
    const order = async (options: Parameters<typeof collection.find>[1]) => (await collection.find({}, options)).map((doc) => doc._id);

    t.deepEqual(await order({ sort: { group: 1, rank: -1 } }), ['r4', 'r2', 'r6', 'r1', 'r3', 'r5']);
    t.deepEqual(await order({ sort: { group: -1, rank: 1 } }), ['r5', 'r3', 'r1', 'r6', 'r2', 'r4']);
    t.deepEqual(await order({ sort: { rank: 1, _id: -1 } }), ['r6', 'r5', 'r3', 'r2', 'r1', 'r4']);
    t.deepEqual(await order({ sort: { group: 1, rank: -1 }, skip: 2, limit: 3 }), ['r6', 'r1', 'r3']);
    t.deepEqual(await order({ sort: { group: 1, rank: -1 }, skip: 5, limit: 3 }), ['r5']);
    t.deepEqual(await order({ sort: { group: 1, rank: -1 }, limit: 2 }), ['r4', 'r2']);

    t.deepEqual(await collection.find({ group: 'c' }, { projection: { rank: 1 } }), [{ _id: 'r5', rank: 1 }]);
    t.deepEqual(await collection.find({ group: 'c' }, { projection: { rank: 1, _id: 0 } }), [{ rank: 1 }]);
    t.deepEqual(await collection.find({ group: 'c' }, { projection: { rank: 0 } }), [{ _id: 'r5', group: 'c' }]);
    t.deepEqual(await collection.findOne({ group: 'a' }, { sort: { rank: -1 }, projection: { group: 0 } }), { _id: 'r4', rank: 3 });
  });

  test(`${title}: sort puts missing and null before values ascending and after them descending`, async (t) => {
    const collection = await fresh('sort_null');
    for (const row of [{ _id: 's1', v: 2 }, { _id: 's2' }, { _id: 's3', v: 1 }, { _id: 's4', v: 'text' }]) await collection.insertOne(row);
    t.deepEqual(
      (await collection.find({}, { sort: { v: 1 } })).map((doc) => doc._id),
      ['s2', 's3', 's1', 's4'],
    );
    t.deepEqual(
      (await collection.find({}, { sort: { v: -1 } })).map((doc) => doc._id),
      ['s4', 's1', 's3', 's2'],
    );
  });

  test(`${title}: sort orders an array field by its smallest element ascending and largest descending`, async (t) => {
    const collection = await fresh('sort_array');
    for (const row of [
      { _id: 'x', v: [1, 5] },
      { _id: 'y', v: [2, 3] },
      { _id: 'z', v: 4 },
    ])
      await collection.insertOne(row);
    t.deepEqual(
      (await collection.find({}, { sort: { v: 1 } })).map((doc) => doc._id),
      ['x', 'y', 'z'],
    );
    t.deepEqual(
      (await collection.find({}, { sort: { v: -1 } })).map((doc) => doc._id),
      ['x', 'z', 'y'],
    );
  });

  test(`${title}: count`, async (t) => {
    const collection = await people('count');
    t.is(await collection.count({}), PEOPLE.length);
    t.is(await collection.count({ status: 'active' }), 3);
    t.is(await collection.count({ 'address.city': 'London', age: { $exists: true } }), 1);
    t.is(await collection.count({ status: 'nobody' }), 0);
    t.is(await collection.count({ status: 'active' }, { limit: 2 }), 2, 'a limit caps the count');
    t.is(await collection.count({ status: 'active' }, { limit: 10 }), 3, 'a limit above the matches changes nothing');
    t.is(await collection.count({}, { limit: 1 }), 1);
  });

  test(`${title}: replaceOne conditional on a version field`, async (t) => {
    const collection = await fresh('replace');
    await collection.insertOne({ _id: 'a1', version: 1, state: 'new' });

    t.true(await collection.replaceOne({ _id: 'a1', version: 1 }, { _id: 'a1', version: 2, state: 'open' }));
    t.deepEqual(await collection.findOne({ _id: 'a1' }), { _id: 'a1', version: 2, state: 'open' });

    t.false(await collection.replaceOne({ _id: 'a1', version: 1 }, { _id: 'a1', version: 2, state: 'stale' }));
    t.false(await collection.replaceOne({ _id: 'absent', version: 1 }, { _id: 'absent', version: 2, state: 'x' }));
    t.deepEqual(await collection.find({}), [{ _id: 'a1', version: 2, state: 'open' }]);
  });

  test(`${title}: of concurrent replaceOne calls expecting one version exactly one wins`, async (t) => {
    const collection = await fresh('race');
    await collection.insertOne({ _id: 'a1', version: 1, writer: -1 });
    const writers = Array.from({ length: 16 }, (_, writer) => writer);
    const results = await Promise.all(writers.map((writer) => collection.replaceOne({ _id: 'a1', version: 1 }, { _id: 'a1', version: 2, writer })));
    const winners = writers.filter((writer) => results[writer]);
    t.is(winners.length, 1);
    t.deepEqual(await collection.findOne({ _id: 'a1' }), { _id: 'a1', version: 2, writer: winners[0] });
  });

  test(`${title}: updateOne applies $set, $unset, $inc, $push and $pull and says whether it matched`, async (t) => {
    const collection = await fresh('update');
    await collection.insertOne({ _id: 'u', n: 1, drop: 'me', profile: { name: 'a' }, tags: ['x'], items: [{ k: 1 }, { k: 2 }, { k: 3 }] });
    await collection.insertOne({ _id: 'other', n: 100 });

    t.true(await collection.updateOne({ _id: 'u' }, { $set: { 'profile.name': 'b', 'profile.since': 2020, fresh: true } }));
    t.true(await collection.updateOne({ _id: 'u' }, { $unset: { drop: '' } }));
    t.true(await collection.updateOne({ _id: 'u' }, { $inc: { n: 2, missing: 5 } }));
    t.true(await collection.updateOne({ _id: 'u' }, { $push: { tags: 'y' } }));
    t.true(await collection.updateOne({ _id: 'u' }, { $push: { tags: { $each: ['z', 'w'] } } }));
    t.true(await collection.updateOne({ _id: 'u' }, { $pull: { items: { k: { $gte: 2 } } } }));
    t.true(await collection.updateOne({ _id: 'u' }, { $pull: { tags: 'z' } }));

    t.deepEqual(await collection.findOne({ _id: 'u' }), {
      _id: 'u',
      n: 3,
      profile: { name: 'b', since: 2020 },
      tags: ['x', 'y', 'w'],
      items: [{ k: 1 }],
      fresh: true,
      missing: 5,
    });
    t.deepEqual(await collection.findOne({ _id: 'other' }), { _id: 'other', n: 100 });

    t.false(await collection.updateOne({ _id: 'absent' }, { $set: { n: 1 } }));
    t.false(await collection.updateOne({ _id: 'u', n: 1 }, { $inc: { n: 1 } }));
    t.is(await collection.count({}), 2, 'a miss inserts nothing');
    t.is((await collection.findOne({ _id: 'u' }))?.n, 3);
  });

  test(`${title}: deleteOne and deleteMany`, async (t) => {
    const collection = await people('delete');
    t.true(await collection.deleteOne({ _id: 'p1' }));
    t.false(await collection.deleteOne({ _id: 'p1' }));
    t.true(await collection.deleteOne({ status: 'active' }), 'one of p3 and p5: without a sort, which is unspecified');
    t.is(await collection.count({ status: 'active' }), 1);
    t.is(await collection.deleteMany({ tags: 'math' }), 1);
    t.is(await collection.deleteMany({ status: 'nobody' }), 0);
    const left = await ids(collection, {});
    t.is(left.length, 2);
    t.true(left.includes('p2'));
  });

  test(`${title}: declaring a collection twice keeps its documents and adds new indexes`, async (t) => {
    const store = await open();
    const name = `contract_redeclare_${++collections}`;
    const first = await store.collection({ name, indexes: [{ key: { email: 1 }, unique: true, name: 'email_unique' }] });
    await first.insertOne({ _id: 'd1', email: 'a@x', phone: '1' });

    const again = await store.collection({ name, indexes: [{ key: { email: 1 }, unique: true, name: 'email_unique' }] });
    t.deepEqual(await again.findOne({ _id: 'd1' }), { _id: 'd1', email: 'a@x', phone: '1' });
    await rejectsDuplicate(t, again, again.insertOne({ _id: 'd2', email: 'a@x' }), 'email_unique');

    const extended = await store.collection({ name, indexes: [{ key: { phone: 1 }, unique: true, name: 'phone_unique' }] });
    await rejectsDuplicate(t, extended, extended.insertOne({ _id: 'd3', email: 'b@x', phone: '1' }), 'phone_unique');
    await rejectsDuplicate(t, extended, extended.insertOne({ _id: 'd4', email: 'a@x', phone: '2' }), 'email_unique');
    await first.insertOne({ _id: 'd5', email: 'c@x', phone: '3' });
    t.is(await extended.count({}), 2);
  });

  test(`${title}: status reports connected`, async (t) => {
    const store = await open();
    const status = await store.status();
    t.true(status.connected);
    t.is(typeof status.responseTimeMs, 'number');
    t.true(status.responseTimeMs! >= 0);
  });
}
