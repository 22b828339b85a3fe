/**
 * A store that behaves as `inner` except where a test overrides a collection's
 * methods: slow writes, writes that report a failure after committing, recorded
 * cursor moves, reads held at a gate.
 */
import type { Collection, CollectionSpec, Store, StoredDocument } from '../../actors/index.js';

export type CollectionOverrides = (spec: CollectionSpec, collection: Collection) => Partial<Collection>;

export function interceptedStore(inner: Store, overrides: CollectionOverrides): Store {
  return {
    adapter: inner.adapter,
    status: () => inner.status(),
    close: () => inner.close(),
    async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
      const collection = await inner.collection(spec);
      const passThrough: Collection = {
        name: collection.name,
        findOne: (filter, options) => collection.findOne(filter, options),
        find: (filter, options) => collection.find(filter, options),
        count: (filter) => collection.count(filter),
        insertOne: (doc) => collection.insertOne(doc),
        replaceOne: (filter, doc) => collection.replaceOne(filter, doc),
        updateOne: (filter, update) => collection.updateOne(filter, update),
        deleteOne: (filter) => collection.deleteOne(filter),
        deleteMany: (filter) => collection.deleteMany(filter),
      };
      // The inner collection was declared for T, so its documents are T's.
      return { ...passThrough, ...overrides(spec, collection) } as unknown as Collection<T>;
    },
  };
}
