import test from 'ava';
import { EmbeddedStore, type Store } from '../../../actors/index.js';
import { counterKind } from '../../support/counter-kind.js';
import { interceptedStore } from '../../support/intercepted-store.js';
import { startTestSystem } from '../../support/test-node.js';

const counter = (id: string) => ({ kind: 'counter', id });

/** A store whose next replaceOne on actors commits and then reports a failure, as a lost reply from a server would. */
function lyingStore(inner: Store): Store & { lieOnce(): void } {
  let lie = false;
  const store = interceptedStore(inner, (spec, collection) => ({
    replaceOne: async (filter, doc) => {
      const matched = await collection.replaceOne(filter, doc);
      if (lie && spec.name.startsWith('actors_')) {
        lie = false;
        throw new Error('connection reset after the write');
      }
      return matched;
    },
  }));
  return Object.assign(store, { lieOnce: () => void (lie = true) });
}

test('an effect saved by a write that reported an error is run by the sweeper, with the actor in memory or not', async (t) => {
  const ran: string[] = [];
  const store = lyingStore(new EmbeddedStore());
  const { system, clock } = await startTestSystem({
    kinds: [counterKind(async (params) => void ran.push((params as { label: string }).label))],
    store,
    cacheSize: 1,
  });
  await system.askAt(counter('lied-to'), { type: 'OPEN' });
  await system.effectsIdle();

  store.lieOnce();
  await t.throwsAsync(system.askAt(counter('lied-to'), { type: 'PROBE', label: 'receipt' }), { message: /connection reset/ });
  await system.askAt(counter('someone-else'), { type: 'OPEN' });
  await system.effectsIdle();
  t.deepEqual(ran, [], 'nothing ran the saved effect yet');
  t.true((await system.documents('counter').findOne({ _id: 'lied-to' }))!.outboxPending);

  await clock.advance(1_000);
  await system.effectsIdle();
  t.deepEqual(ran, ['receipt']);
  t.false((await system.documents('counter').findOne({ _id: 'lied-to' }))!.outboxPending);
});
