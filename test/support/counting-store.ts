/**
 * A store that behaves as `inner` and tallies every write by collection: inserts,
 * replaces, updates and deletes, and the JSON bytes of the documents inserted or
 * replaced. Measures what a request costs the store (writes per create, bytes per
 * create) through the public interfaces only.
 */
import type { Collection, Store, StoredDocument } from '../../actors/index.js';

export interface WriteTally {
  inserts: number;
  replaces: number;
  updates: number;
  deletes: number;
  bytes: number;
}

export interface CountingStore extends Store {
  /** Writes by collection name since the last `reset`. */
  readonly tallies: Map<string, WriteTally>;
  reset(): void;
  /** Writes of every collection whose name passes `which`, summed. */
  total(which?: (name: string) => boolean): WriteTally;
}

const jsonBytes = (doc: unknown) => Buffer.byteLength(JSON.stringify(doc, (_key, value) => (typeof value === 'bigint' ? value.toString() : value)));

export function countingStore(inner: Store): CountingStore {
  const tallies = new Map<string, WriteTally>();
  const tally = (name: string): WriteTally => {
    let found = tallies.get(name);
    if (!found) tallies.set(name, (found = { inserts: 0, replaces: 0, updates: 0, deletes: 0, bytes: 0 }));
    return found;
  };
  return {
    adapter: inner.adapter,
    tallies,
    status: () => inner.status(),
    close: () => inner.close(),
    reset: () => tallies.clear(),
    total(which = () => true) {
      const sum: WriteTally = { inserts: 0, replaces: 0, updates: 0, deletes: 0, bytes: 0 };
      for (const [name, counted] of tallies) {
        if (!which(name)) continue;
        for (const field of Object.keys(sum) as Array<keyof WriteTally>) sum[field] += counted[field];
      }
      return sum;
    },
    async collection<T extends StoredDocument = StoredDocument>(spec: Parameters<Store['collection']>[0]): Promise<Collection<T>> {
      const collection = await inner.collection<T>(spec);
      const name = spec.name;
      return {
        name: collection.name,
        findOne: (filter, options) => collection.findOne(filter, options),
        find: (filter, options) => collection.find(filter, options),
        count: (filter, options) => collection.count(filter, options),
        insertOne: (doc, options) => {
          const counted = tally(name);
          counted.inserts++;
          counted.bytes += jsonBytes(doc);
          return collection.insertOne(doc, options);
        },
        replaceOne: async (filter, doc, options) => {
          const landed = await collection.replaceOne(filter, doc, options);
          if (landed) {
            const counted = tally(name);
            counted.replaces++;
            counted.bytes += jsonBytes(doc);
          }
          return landed;
        },
        updateOne: async (filter, update) => {
          const landed = await collection.updateOne(filter, update);
          if (landed) tally(name).updates++;
          return landed;
        },
        deleteOne: async (filter) => {
          const landed = await collection.deleteOne(filter);
          if (landed) tally(name).deletes++;
          return landed;
        },
        deleteMany: async (filter) => {
          const deleted = await collection.deleteMany(filter);
          tally(name).deletes += deleted;
          return deleted;
        },
      };
    },
  };
}
