import test from 'ava';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';
import type { StoredDocument } from '../../../actors/store/store.js';
import { storeContract } from './contract.js';

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
  t.is(evaluated, 100, 'only the indexed candidates are evaluated');

  evaluated = 0;
  t.deepEqual(await collection.find({ $expr: counting, group: 'target' }, { sort: { createdAt: -1 }, limit: 20 }), expected);
  t.is(evaluated, TOTAL, 'an unindexed field scans every document');
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
