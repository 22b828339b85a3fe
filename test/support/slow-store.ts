/**
 * A store whose writes take `writeMs` of wall time, as a networked store's do, so a
 * turn outlasts a short ask attempt and the ask's retry meets its original in flight.
 */
import type { Collection, CollectionSpec, Store, StoredDocument } from '../../actors/index.js';

export function slowStore(inner: Store, writeMs: number): Store {
  const pause = () => new Promise((resolve) => setTimeout(resolve, writeMs));
  return {
    adapter: inner.adapter,
    status: () => inner.status(),
    close: () => inner.close(),
    async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
      const collection = await inner.collection<T>(spec);
      return {
        name: collection.name,
        findOne: (filter, options) => collection.findOne(filter, options),
        find: (filter, options) => collection.find(filter, options),
        count: (filter) => collection.count(filter),
        insertOne: async (doc) => {
          await pause();
          return collection.insertOne(doc);
        },
        replaceOne: async (filter, doc) => {
          await pause();
          return collection.replaceOne(filter, doc);
        },
        updateOne: async (filter, update) => {
          await pause();
          return collection.updateOne(filter, update);
        },
        deleteOne: (filter) => collection.deleteOne(filter),
        deleteMany: (filter) => collection.deleteMany(filter),
      };
    },
  };
}
