import { isDeepStrictEqual } from 'node:util';
import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import type { Collection, Filter, IndexSpec, SortSpec, Store, StoredDocument } from '../../../actors/store/store.js';

/**
 * Randomized equivalence: an indexed collection answers every find and count exactly as
 * one with no indexes, whose answers come from a scan and a full sort. The documents and
 * queries have the order list's shape, with few distinct values so that spans, ties and
 * pages interact, and now and then a value (an array, NaN, a subdocument, a missing or
 * non-object `view`) that the ordered indexes must decline. The search grams are a
 * multikey index, asked with `$all`, null and the search's `$or` of the two.
 */
const ORDER_INDEXES: IndexSpec[] = [
  { key: { 'view.merchantId': 1, 'view.environment': 1, 'view.createdAt': -1 } },
  { key: { 'view.merchantId': 1, 'view.environment': 1, 'view.status': 1, 'view.createdAt': -1 } },
  { key: { 'view.searchGrams': 1, 'view.merchantId': 1, 'view.environment': 1 } },
];
const MERCHANTS = ['A', 'B', 'C'];
const ENVIRONMENTS = ['LIVE', 'TEST'];
const STATUSES = ['CREATED', 'PAID', 'EXPIRED'];
const TIMES = ['2024-01-01T00:00:00.000Z', '2024-01-01T00:00:01.000Z', '2024-01-02T00:00:00.000Z', '2024-02-01T00:00:00.000Z'];
const IDS = Array.from({ length: 24 }, (_, i) => `ord_${String(i).padStart(2, '0')}`);

/** Missing, null and other types sort and match by MongoDB's rules; the index must place them too. */
const ODD = [undefined, null, 7, true];
/** Values the ordered indexes decline. */
const IRREGULAR = [['A'], [], ['B', 'C'], Number.NaN, { at: 1 }];
const GRAMS = ['ord', 'rd_', 'sku', 'mug'];

/** A view's grams: a set of them mostly; null or missing (never ruled out by a search); rarely a shape only mingo's rules place. */
const searchGrams: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: fc.subarray(GRAMS) },
  { weight: 2, arbitrary: fc.constantFrom(null, undefined) },
  { weight: 1, arbitrary: fc.constantFrom('sku', [['sku', 'mug']], [{ g: 'sku' }], ['sku', null], ['mug', 'mug']) },
);

function field(common: readonly unknown[], irregular: boolean): fc.Arbitrary<unknown> {
  const choices = [
    { weight: 20, arbitrary: fc.constantFrom(...common) },
    { weight: 2, arbitrary: fc.constantFrom(...ODD) },
  ];
  if (irregular) choices.push({ weight: 1, arbitrary: fc.constantFrom(...IRREGULAR) });
  return fc.oneof(...choices);
}

function orderDoc(irregular: boolean): fc.Arbitrary<StoredDocument> {
  const view = fc
    .record({
      merchantId: field(MERCHANTS, irregular),
      environment: field(ENVIRONMENTS, irregular),
      status: field(STATUSES, irregular),
      createdAt: field(TIMES, irregular),
      searchText: fc.constantFrom('alpha', 'beta', 'gamma'),
      searchGrams,
    })
    .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));
  const oddView = fc.constantFrom(undefined, null, 'flat', [{ merchantId: 'A' }]);
  return fc.record({
    _id: fc.constantFrom(...IDS),
    view: irregular ? fc.oneof({ weight: 15, arbitrary: view }, { weight: 1, arbitrary: oddView }) : view,
    n: fc.integer({ min: 0, max: 4 }),
  });
}

type Operation = { op: 'insert' | 'replace'; doc: StoredDocument } | { op: 'set'; id: string; path: string; value: unknown } | { op: 'delete'; id: string };

function operation(irregular: boolean): fc.Arbitrary<Operation> {
  const path = fc.constantFrom('view.merchantId', 'view.environment', 'view.status', 'view.createdAt', 'n');
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('set' as const), id: fc.constantFrom(...IDS), path: fc.constant('view.searchGrams'), value: searchGrams }),
    },
    { weight: 4, arbitrary: orderDoc(irregular).map((doc) => ({ op: 'insert' as const, doc })) },
    { weight: 2, arbitrary: orderDoc(irregular).map((doc) => ({ op: 'replace' as const, doc })) },
    {
      weight: 2,
      arbitrary: fc.record({
        op: fc.constant('set' as const),
        id: fc.constantFrom(...IDS),
        path,
        value: field([...MERCHANTS, ...STATUSES, ...TIMES], irregular),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), id: fc.constantFrom(...IDS) }) },
  );
}

/** Applies one operation and describes its outcome, so both collections can be seen to agree on it. */
async function apply(collection: Collection, operation: Operation): Promise<string> {
  try {
    switch (operation.op) {
      case 'insert':
        await collection.insertOne(operation.doc);
        return 'inserted';
      case 'replace':
        return String(await collection.replaceOne({ _id: operation.doc._id }, operation.doc));
      case 'set':
        return String(await collection.updateOne({ _id: operation.id }, { $set: { [operation.path]: operation.value } }));
      case 'delete':
        return String(await collection.deleteOne({ _id: operation.id }));
    }
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
}

/** A pinned value mostly, as the ordered indexes can use; sometimes another condition on the same field. */
function condition(common: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom(...common, 'Z') },
    { weight: 2, arbitrary: fc.constantFrom(...common).map((value) => ({ $eq: value })) },
    { weight: 1, arbitrary: fc.constantFrom(null, 7, true, { $in: common.slice(0, 2) }, { $ne: common[0] }) },
  );
}

/** `$all` of some grams: what the posting sets answer, by intersection. */
const allGrams = fc.subarray(GRAMS, { minLength: 1 }).map((grams) => ({ $all: grams }));

/** Further conditions, none of which an ordered index answers. */
const otherConditions = {
  'view.searchGrams': fc.oneof(
    { weight: 4, arbitrary: allGrams },
    { weight: 2, arbitrary: fc.constantFrom(null, 'sku', { $all: ['sku', 'none'] }, { $in: [null, 'mug'] }, { $eq: null }) },
    { weight: 1, arbitrary: fc.constantFrom({ $all: [] }, { $all: [['sku', 'mug']] }, { $all: [null] }, { $all: [/^s/] }, { $all: ['sku'], $size: 2 }) },
  ),
  'view.searchText': fc.constantFrom({ $regex: 'a$' }, { $regex: 'm' }),
  'view.createdAt': fc.constantFrom({ $gt: TIMES[0] }, { $lte: TIMES[2] }),
  n: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.constant({ $gte: 2 })),
  _id: fc.constantFrom({ $regex: '1' }, IDS[3], { $in: [IDS[1], IDS[2], 'none'] }),
};

/** The order search's own `$or`, and one with a branch no index narrows. */
const searchOr = fc.oneof(
  { weight: 3, arbitrary: allGrams.map((all) => [{ 'view.searchGrams': all }, { 'view.searchGrams': null }]) },
  { weight: 1, arbitrary: allGrams.map((all) => [{ 'view.searchGrams': all }, { n: { $gte: 3 } }]) },
);

/** The order list's filter: merchant and environment pinned, the status often, and at most one other condition and a search's `$or`. */
const listFilter: fc.Arbitrary<Filter> = fc
  .record({
    'view.merchantId': fc.constantFrom(...MERCHANTS, 'Z'),
    'view.environment': fc.constantFrom(...ENVIRONMENTS),
    'view.status': fc.option(fc.constantFrom(...STATUSES), { nil: undefined, freq: 2 }),
    other: fc.option(fc.constantFrom(...(Object.keys(otherConditions) as (keyof typeof otherConditions)[])), { nil: undefined, freq: 2 }),
    condition: fc.oneof(...Object.values(otherConditions)),
    search: fc.option(searchOr, { nil: undefined, freq: 3 }),
  })
  .map(({ other, condition, search, ...pinned }) => {
    const filter: Filter = Object.fromEntries(Object.entries(pinned).filter(([, value]) => value !== undefined));
    if (other) filter[other] = condition;
    if (search) filter.$or = search;
    return filter;
  });

/** Any mix of conditions on the indexed fields and others. */
const anyFilter: fc.Arbitrary<Filter> = fc.record(
  {
    'view.merchantId': condition(MERCHANTS),
    'view.environment': condition(ENVIRONMENTS),
    'view.status': condition(STATUSES),
    ...otherConditions,
    $or: searchOr,
  },
  { requiredKeys: [] },
);

const orderFilter = fc.oneof(listFilter, anyFilter);

const orderSort = fc.constantFrom<SortSpec>(
  { 'view.createdAt': -1, _id: -1 },
  { 'view.createdAt': 1, _id: 1 },
  { 'view.createdAt': -1 },
  { 'view.createdAt': 1, n: -1 },
  { 'view.createdAt': -1, _id: 1 },
  { 'view.status': 1, 'view.createdAt': -1 },
  { 'view.status': -1, 'view.createdAt': 1, _id: -1 },
  { 'view.merchantId': 1, 'view.environment': 1, 'view.createdAt': -1 },
  { 'view.environment': -1, 'view.createdAt': 1 },
  { 'view.environment': 1, 'view.status': -1, n: 1 },
  { 'view.createdAt': -1, 'view.merchantId': 1, 'view.status': 1 },
  { n: 1, _id: -1 },
);

const orderQuery = fc.record({
  filter: orderFilter,
  sort: orderSort,
  skip: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 8 })),
  limit: fc.constantFrom(0, 1, 2, 3, 5, 20),
});

type OrderQuery = typeof orderQuery extends fc.Arbitrary<infer Q> ? Q : never;

async function sameAnswers(t: ExecutionContext, indexed: Collection, reference: Collection, { filter, sort, skip, limit }: OrderQuery): Promise<boolean> {
  const page = { sort, skip, limit };
  const [found, expected] = [await indexed.find(filter, page), await reference.find(filter, page)];
  const [counted, total] = [await indexed.count(filter), await reference.count(filter)];
  const [one, first] = [await indexed.findOne(filter, { sort }), await reference.findOne(filter, { sort })];
  const agree = isDeepStrictEqual(found, expected) && counted === total && isDeepStrictEqual(one, first);
  if (!agree) t.log({ filter, sort, skip, limit, found: found.map(idOf), expected: expected.map(idOf), counted, total });
  return agree;
}

function idOf(doc: StoredDocument): string {
  return doc._id;
}

async function orderCollections(store: Store, label: string): Promise<[indexed: Collection, reference: Collection]> {
  return [await store.collection({ name: `${label}_indexed`, indexes: ORDER_INDEXES }), await store.collection({ name: `${label}_scanned`, indexes: [] })];
}

/** Random histories of writes to an indexed and an unindexed collection, then random queries: both answer alike. */
export async function randomHistoriesAgree(t: ExecutionContext, store: () => Promise<Store>, numRuns: number): Promise<void> {
  let run = 0;
  const history = fc.boolean().chain((irregular) => fc.array(operation(irregular), { maxLength: 80 }));
  await fc.assert(
    fc.asyncProperty(history, fc.array(orderQuery, { minLength: 1, maxLength: 12 }), async (operations, queries) => {
      const [indexed, reference] = await orderCollections(await store(), `random_${run++}`);
      for (const op of operations) if ((await apply(indexed, op)) !== (await apply(reference, op))) return false;
      for (const query of queries) if (!(await sameAnswers(t, indexed, reference, query))) return false;
      return true;
    }),
    { numRuns },
  );
}

/** `documents` order-list documents in both collections, churned (moved to other keys, some deleted), then random queries: both answer alike. */
export async function manyDocumentsAgree(
  t: ExecutionContext,
  store: Store,
  documents: number,
  insert: (collection: Collection, docs: StoredDocument[]) => Promise<void>,
): Promise<void> {
  const [indexed, reference] = await orderCollections(store, 'large');
  const random = fc.sample(
    fc.tuple(fc.constantFrom(...MERCHANTS), fc.constantFrom(...ENVIRONMENTS), fc.constantFrom(...STATUSES), fc.integer({ min: 0, max: 400 })),
    { numRuns: documents, seed: 42 },
  );
  const docs = random.map(([merchantId, environment, status, second], i) => ({
    _id: `big_${i}`,
    view: {
      merchantId,
      environment,
      status,
      createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, second)).toISOString(),
      searchText: 'gamma',
      // Grams by the bits of i, so every combination is common; every 13th view has none.
      searchGrams: i % 13 === 0 ? null : GRAMS.filter((_, bit) => (i >> bit) & 1),
    },
    n: i % 5,
  }));
  await insert(indexed, docs);
  await insert(reference, docs);
  for (const [i, doc] of docs.entries()) {
    if (i % 7 === 3) {
      const moved = { ...doc, view: { ...doc.view, status: STATUSES[i % 3]!, createdAt: TIMES[i % TIMES.length]! } };
      t.is(await indexed.replaceOne({ _id: doc._id }, moved), await reference.replaceOne({ _id: doc._id }, moved));
    }
    if (i % 11 === 5) t.is(await indexed.deleteOne({ _id: `big_${i - 5}` }), await reference.deleteOne({ _id: `big_${i - 5}` }));
  }
  await fc.assert(
    fc.asyncProperty(orderQuery, (query) => sameAnswers(t, indexed, reference, query)),
    { numRuns: 300 },
  );
}
