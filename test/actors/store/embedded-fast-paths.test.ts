/**
 * The embedded store answers plain filters (equality, null, `$all` of strings, a
 * string `$regex`, `$type: 'string'`, `$or` of such) and top-level projections without mingo; these
 * properties hold it to mingo's own answers on documents with nested objects, arrays
 * along the paths and inside arrays, dates, missing fields and mixed types.
 */
import test from 'ava';
import fc from 'fast-check';
import { find } from 'mingo';
import { EmbeddedStore } from '../../../actors/index.js';

const scalar = fc.oneof(fc.constantFrom('a', 'b', ''), fc.integer({ min: -2, max: 2 }), fc.boolean());
const leaf = fc.oneof(
  scalar,
  fc.constantFrom(null, new Date(0)),
  fc.array(scalar, { maxLength: 3 }),
  fc.array(fc.oneof(scalar, fc.constant(null), fc.array(scalar, { maxLength: 2 })), { maxLength: 3 }),
);
const inner = fc.dictionary(fc.constantFrom('x', 'y'), fc.oneof(leaf, fc.array(fc.dictionary(fc.constantFrom('x', 'y'), leaf), { maxLength: 2 })), {
  maxKeys: 2,
});
const doc = fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.oneof(leaf, inner, fc.array(inner, { maxLength: 2 })), { maxKeys: 3 });
const path = fc.constantFrom('a', 'b', 'a.x', 'b.y', 'c.x', 'a.x.y', 'c');
const condition = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom({ $all: ['a'] }, { $all: ['a', 'b'] }, { $all: [''] }) },
  { weight: 1, arbitrary: fc.constantFrom({ $regex: 'a' }, { $regex: '^B', $options: 'i' }, { $regex: '' }, { $regex: 'a|b' }) },
  { weight: 1, arbitrary: fc.constant({ $type: 'string' }) },
);
const fields = fc.dictionary(path, condition, { minKeys: 1, maxKeys: 2 });
const filter = fc.oneof(
  { weight: 3, arbitrary: fields },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.array(fields, { minLength: 1, maxLength: 3 }), fc.option(fields)).map(([branches, rest]) => ({ ...rest, $or: branches })),
  },
);
const projection = fc.oneof(
  fc.dictionary(fc.constantFrom('a', 'b', 'c', '_id'), fc.constant<1>(1), { minKeys: 1, maxKeys: 3 }),
  fc.dictionary(fc.constantFrom('a', 'b', 'c', '_id'), fc.constant<0>(0), { minKeys: 1, maxKeys: 3 }),
  fc.record({ _id: fc.constant<0>(0), a: fc.constant<1>(1) }),
);

/** The bodies as documents d0, d1, … in a fresh store's collection, and the documents themselves for mingo. */
async function loaded<T extends object>(bodies: T[]) {
  const docs = bodies.map((body, i) => ({ ...body, _id: `d${i}` }));
  const collection = await new EmbeddedStore().collection({ name: 'docs', indexes: [] });
  for (const item of docs) await collection.insertOne(item);
  return { docs, collection };
}

test('filters the store tests itself, on dotted paths, match exactly what mingo matches', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 8 }), filter, async (bodies, query) => {
      const { docs, collection } = await loaded(bodies);
      const ours = (await collection.find(query)).map((item) => item._id).sort();
      const theirs = (find(docs, query).all() as Array<{ _id: string }>).map((item) => item._id).sort();
      t.deepEqual(ours, theirs, JSON.stringify({ docs, query }));
    }),
    { numRuns: 1_000 },
  );
});

test('top-level projections give exactly what mingo gives', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 4 }), projection, async (bodies, fields) => {
      const { docs, collection } = await loaded(bodies);
      const ours = await collection.find({}, { projection: fields });
      t.deepEqual(ours, find(docs, {}, fields).all(), JSON.stringify({ docs, fields }));
    }),
    { numRuns: 300 },
  );
});
