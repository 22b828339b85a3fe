import test from 'ava';
import { EmbeddedStore, type Collection, type CollectionSpec, type Store, type StoredDocument } from '../../../actors/index.js';
import { counterKind } from '../../support/counter-kind.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });

/** A store whose next replaceOne on actors commits and then reports a failure, as a lost reply from a server would. */
function lyingStore(inner: Store): Store & { lieOnce(): void } {
  let lie = false;
  return {
    adapter: inner.adapter,
    status: () => inner.status(),
    close: () => inner.close(),
    lieOnce: () => void (lie = true),
    async collection<T extends StoredDocument = StoredDocument>(spec: CollectionSpec): Promise<Collection<T>> {
      const collection = await inner.collection<T>(spec);
      return {
        name: collection.name,
        findOne: collection.findOne.bind(collection),
        find: collection.find.bind(collection),
        count: collection.count.bind(collection),
        insertOne: collection.insertOne.bind(collection),
        updateOne: collection.updateOne.bind(collection),
        deleteOne: collection.deleteOne.bind(collection),
        deleteMany: collection.deleteMany.bind(collection),
        replaceOne: async (filter: Record<string, unknown>, doc: T) => {
          const matched = await collection.replaceOne(filter, doc);
          if (lie && spec.name.startsWith('actors_')) {
            lie = false;
            throw new Error('connection reset after the write');
          }
          return matched;
        },
      };
    },
  };
}

test('an effect saved by a write that reported an error is run by the sweeper, with the actor in memory or not', async (t) => {
  const ran: string[] = [];
  const store = lyingStore(new EmbeddedStore());
  const { system, clock } = await startTestSystem({ kinds: [counterKind(async (params) => void ran.push((params as { label: string }).label))], store, cacheSize: 1 });
  await system.ask(counter('lied-to'), { type: 'OPEN' });
  await system.effectsIdle();

  store.lieOnce();
  await t.throwsAsync(system.ask(counter('lied-to'), { type: 'PROBE', label: 'receipt' }), { message: /connection reset/ });
  await system.ask(counter('someone-else'), { type: 'OPEN' });
  await system.effectsIdle();
  t.deepEqual(ran, [], 'nothing ran the saved effect yet');
  t.true((await system.documents('counter').findOne({ _id: 'lied-to' }))!.outboxPending);

  await clock.advance(1_000);
  await system.effectsIdle();
  t.deepEqual(ran, ['receipt']);
  t.false((await system.documents('counter').findOne({ _id: 'lied-to' }))!.outboxPending);
});
