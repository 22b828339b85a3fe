/**
 * With indexes declared, the embedded store narrows by posting sets (equality, `$in`,
 * `$all`, arrays filed under their elements only) and by numeric ranges along ordered
 * indexes (after a pinned prefix, or under each value of a free first field), and
 * walks ordered indexes for sorts.
 * Whatever it narrows or walks, the answers must be mingo's own: same documents, same
 * order.
 */
import test from 'ava';
import fc from 'fast-check';
import { find } from 'mingo';
import { EmbeddedStore } from '../../../actors/index.js';

const scalar = fc.oneof(fc.constantFrom('a', 'b', 'B', '', '10', '9'), fc.integer({ min: -2, max: 12 }), fc.constantFrom(0.5, -0), fc.boolean());
const value = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.constantFrom(null, new Date(0), new Date(1)) },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('x', 'y'), scalar, { maxKeys: 2, noNullPrototype: true }) },
);
const doc = fc.oneof(
  fc.record({ a: value, b: value, c: value }, { requiredKeys: [] }),
  // Only scalars, so every ordered index stays usable and the range walks run.
  fc.record({ a: fc.oneof(scalar, fc.constant(null)), b: fc.oneof(scalar, fc.constant(null)), c: fc.constantFrom('s0', 's1', 2, null) }, { requiredKeys: [] }),
);
const bound = fc.oneof(fc.integer({ min: -3, max: 13 }), fc.constantFrom(0.5, -0, Infinity, -Infinity), scalar);
// Ranges an index walk narrows by (numbers), with what may sit beside them: a non-numeric bound, `$ne`, `$in`.
const range = fc
  .record(
    { $gt: bound, $gte: bound, $lt: bound, $lte: bound, $ne: fc.oneof(fc.constant(null), scalar), $in: fc.array(scalar, { minLength: 1, maxLength: 3 }) },
    { requiredKeys: [], noNullPrototype: true },
  )
  .filter((operators) => ['$gt', '$gte', '$lt', '$lte'].some((operator) => operator in operators));
const condition = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.array(scalar, { maxLength: 2 }) },
  { weight: 1, arbitrary: fc.array(scalar, { minLength: 1, maxLength: 3 }).map((values) => ({ $in: values })) },
  { weight: 1, arbitrary: fc.array(fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), { minLength: 1, maxLength: 2 }).map((values) => ({ $all: values })) },
  { weight: 1, arbitrary: fc.array(fc.array(scalar, { maxLength: 2 }), { minLength: 1, maxLength: 2 }).map((values) => ({ $in: values })) },
  { weight: 3, arbitrary: range },
);
const filter = fc.dictionary(fc.constantFrom('a', 'b', 'c'), condition, { maxKeys: 2, noNullPrototype: true });
const sort = fc.oneof(fc.constant({ a: 1 as const, b: -1 as const }), fc.constant({ b: 1 as const }), fc.constant({ a: -1 as const }));

async function loaded(bodies: object[]) {
  const docs = bodies.map((body, i) => ({ ...body, _id: `d${i}` }));
  const collection = await new EmbeddedStore().collection({
    name: 'docs',
    indexes: [
      { key: { a: 1, b: -1 }, name: 'a_b' },
      { key: { b: 1 }, name: 'b' },
      { key: { c: 1, a: 1 }, name: 'c_a' },
    ],
  });
  for (const item of docs) await collection.insertOne(item);
  return { docs, collection };
}

test('indexed filters find exactly what mingo finds, arrays and ranges as conditions included', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 12 }), filter, async (bodies, query) => {
      const { docs, collection } = await loaded(bodies);
      const ours = (await collection.find(query)).map((item) => item._id).sort();
      const theirs = (find(docs, query).all() as Array<{ _id: string }>).map((item) => item._id).sort();
      t.deepEqual(ours, theirs, JSON.stringify({ docs, query }));
    }),
    { numRuns: 1_000 },
  );
});

test('sorts walked along ordered indexes come out in mingo’s order, ties by insertion', async (t) => {
  // Strings, numbers, null and booleans only: documents holding one of those (no arrays or subdocuments) are the ones an ordered index files.
  const orderable = fc.record({ a: fc.oneof(scalar, fc.constant(null)), b: fc.oneof(scalar, fc.constant(null)) }, { requiredKeys: [] });
  await fc.assert(
    fc.asyncProperty(fc.array(orderable, { minLength: 1, maxLength: 12 }), sort, async (bodies, order) => {
      const { docs, collection } = await loaded(bodies);
      const ours = (await collection.find({}, { sort: order })).map((item) => item._id);
      const theirs = (find(docs, {}).sort(order).all() as Array<{ _id: string }>).map((item) => item._id);
      t.deepEqual(ours, theirs, JSON.stringify({ docs, order }));
    }),
    { numRuns: 1_000 },
  );
});

test('numeric ranges walked along ordered indexes, after a pinned field or under each value of a free one, find what mingo finds', async (t) => {
  // Scalars only, so every index stays usable and the walks are what answers.
  const flat = fc.record(
    { a: fc.oneof(scalar, fc.constant(null)), b: fc.oneof(scalar, fc.constant(null)), c: fc.constantFrom('s0', 's1', 2, null) },
    { requiredKeys: [] },
  );
  const query = fc.oneof(
    fc.record({ a: scalar, b: range }),
    fc.record({ b: range }),
    fc.record({ c: fc.constantFrom('s0', 's1', 2), a: range }),
    fc.record({ a: range }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(flat, { minLength: 1, maxLength: 16 }), query, sort, async (bodies, filter, order) => {
      const { docs, collection } = await loaded(bodies);
      const ours = (await collection.find(filter, { sort: order })).map((item) => item._id);
      const theirs = (find(docs, filter).sort(order).all() as Array<{ _id: string }>).map((item) => item._id);
      t.deepEqual(ours, theirs, JSON.stringify({ docs, filter, order }));
    }),
    { numRuns: 2_000 },
  );
});
