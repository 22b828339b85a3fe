/**
 * A store whose writes take `writeMs` of wall time, as a networked store's do, so a
 * turn outlasts a short ask attempt and the ask's retry meets its original in flight.
 */
import type { Store } from '../../actors/index.js';
import { interceptedStore } from './intercepted-store.js';

export function slowStore(inner: Store, writeMs: number): Store {
  const pause = () => new Promise((resolve) => setTimeout(resolve, writeMs));
  return interceptedStore(inner, (_spec, collection) => ({
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
  }));
}
