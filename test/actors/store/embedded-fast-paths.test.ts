/**
 * The embedded store answers plain filters and top-level projections without mingo;
 * these properties hold it to mingo's own answers on documents with nested objects,
 * arrays along the paths, missing fields and mixed types.
 */
import test from 'ava';
import fc from 'fast-check';
import { find } from 'mingo';
import { EmbeddedStore } from '../../../actors/index.js';

const scalar = fc.oneof(fc.constantFrom('a', 'b', ''), fc.integer({ min: -2, max: 2 }), fc.boolean());
const leaf = fc.oneof(scalar, fc.constant(null), fc.array(scalar, { maxLength: 3 }));
const inner = fc.dictionary(fc.constantFrom('x', 'y'), fc.oneof(leaf, fc.array(fc.dictionary(fc.constantFrom('x', 'y'), leaf), { maxLength: 2 })), { maxKeys: 2 });
const doc = fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.oneof(leaf, inner, fc.array(inner, { maxLength: 2 })), { maxKeys: 3 });
const path = fc.constantFrom('a', 'b', 'a.x', 'b.y', 'c.x', 'a.x.y', 'c');
const filter = fc.dictionary(path, scalar, { minKeys: 1, maxKeys: 2 });
const projection = fc.oneof(
  fc.dictionary(fc.constantFrom('a', 'b', 'c', '_id'), fc.constant<1>(1), { minKeys: 1, maxKeys: 3 }),
  fc.dictionary(fc.constantFrom('a', 'b', 'c', '_id'), fc.constant<0>(0), { minKeys: 1, maxKeys: 3 }),
  fc.record({ _id: fc.constant<0>(0), a: fc.constant<1>(1) }),
);

test('plain filters on dotted paths match exactly what mingo matches', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 8 }), filter, async (bodies, query) => {
      const docs = bodies.map((body, i) => ({ ...body, _id: `d${i}` }));
      const store = new EmbeddedStore();
      const collection = await store.collection({ name: 'docs', indexes: [] });
      for (const item of docs) await collection.insertOne(item);
      const ours = (await collection.find(query)).map((item) => item._id).sort();
      const theirs = (find(docs, query).all() as Array<{ _id: string }>).map((item) => item._id).sort();
      t.deepEqual(ours, theirs, JSON.stringify({ docs, query }));
    }),
    { numRuns: 300 },
  );
});

test('top-level projections give exactly what mingo gives', async (t) => {
  await fc.assert(
    fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 4 }), projection, async (bodies, fields) => {
      const docs = bodies.map((body, i) => ({ ...body, _id: `d${i}` }));
      const store = new EmbeddedStore();
      const collection = await store.collection({ name: 'docs', indexes: [] });
      for (const item of docs) await collection.insertOne(item);
      const ours = await collection.find({}, { projection: fields });
      t.deepEqual(ours, find(docs, {}, fields).all(), JSON.stringify({ docs, fields }));
    }),
    { numRuns: 300 },
  );
});
