import test from 'ava';
import { DuplicateKeyError } from '../../../actors/errors.js';
import { instrumentStore, noMetrics, type RuntimeMetrics } from '../../../actors/metrics/index.js';
import { EmbeddedStore } from '../../../actors/store/embedded-store.js';
import { storeContract } from '../store/contract.js';

type Reported = [collection: string, operation: Parameters<RuntimeMetrics['storeOperation']>[1], seconds: number];

function recording(): { metrics: RuntimeMetrics; reported: Reported[] } {
  const reported: Reported[] = [];
  return { metrics: { ...noMetrics, storeOperation: (...call) => void reported.push(call) }, reported };
}

// The decorator owes the runtime everything the store it wraps does.
const shared = instrumentStore(new EmbeddedStore(), recording().metrics);
storeContract('instrumented embedded', async () => shared);

test('instrumented: every collection call is timed under its collection and operation', async (t) => {
  const { metrics, reported } = recording();
  const store = instrumentStore(new EmbeddedStore(), metrics);
  t.is(store.adapter, 'embedded');
  const things = await store.collection({ name: 'things', indexes: [] });
  t.is(things.name, 'things');
  t.deepEqual(reported, [], 'declaring a collection is not a collection call');

  await things.insertOne({ _id: 'a', n: 1 });
  await things.findOne({ _id: 'a' });
  await things.find({});
  await things.count({});
  await things.replaceOne({ _id: 'a' }, { _id: 'a', n: 2 });
  await things.updateOne({ _id: 'a' }, { $inc: { n: 1 } });
  await things.deleteOne({ _id: 'a' });
  await things.deleteMany({});
  t.deepEqual(
    reported.map(([collection, operation]) => `${collection} ${operation}`),
    ['insert', 'find', 'find', 'count', 'replace', 'update', 'delete', 'delete'].map((operation) => `things ${operation}`),
  );
  for (const [, , seconds] of reported) t.true(seconds >= 0 && seconds < 5);
  t.deepEqual((await store.status()).connected, true);
  await store.close();
  t.false((await store.status()).connected, 'close() reaches the store it wraps');
});

test('instrumented: a failed call is timed too, and its error is the store’s own', async (t) => {
  const { metrics, reported } = recording();
  const store = instrumentStore(new EmbeddedStore(), metrics);
  const things = await store.collection({ name: 'things', indexes: [] });
  await things.insertOne({ _id: 'a' });
  const error = await t.throwsAsync(things.insertOne({ _id: 'a' }), { instanceOf: DuplicateKeyError });
  t.is(error?.collection, 'things');
  t.deepEqual(
    reported.map(([collection, operation]) => `${collection} ${operation}`),
    ['things insert', 'things insert'],
  );
});
