/**
 * A store that fails while the timer poll looks for due timers must not take the node
 * down: the pass is logged and tried again at the next poll, and the timer still fires
 * once the store answers. (Before, the poll's rejected pass was an unhandled rejection,
 * which ends a Node process: a store blip killed the node.)
 */
import test from 'ava';
import { EmbeddedStore, createLogger } from '../../../actors/index.js';
import { counterKind, type CounterView } from '../../support/counter-kind.js';
import { interceptedStore } from '../../support/intercepted-store.js';
import { startTestSystem } from '../../support/test-node.js';

test('a timer pass the store fails is logged and tried again; the timer fires once the store answers', async (t) => {
  let failing = false;
  let failedFinds = 0;
  let failedOnce: () => void = () => {};
  const failed = new Promise<void>((resolve) => (failedOnce = resolve));
  const store = interceptedStore(new EmbeddedStore(), (spec, collection) => ({
    find: async (filter, options) => {
      if (failing && spec.name.startsWith('actors_')) {
        failedFinds++;
        failedOnce();
        throw new Error('connection to the store lost');
      }
      return collection.find(filter, options);
    },
  }));
  const warnings: string[] = [];
  const logger = createLogger({ level: 'warn', destination: { write: (line: string) => void warnings.push(JSON.parse(line).msg) } });
  const { system, clock } = await startTestSystem({ kinds: [counterKind()], store, logger, timerPollMs: 10 });
  const counter = { kind: 'counter', id: 'outage' };
  const rings = async () => ((await system.documents('counter').findOne({ _id: 'outage' }))!.view as unknown as CounterView).rings;
  await system.askAt(counter, { type: 'OPEN' });
  await system.askAt(counter, { type: 'ARM', ms: 1_000 });

  failing = true;
  // The poll runs on its own every 10 ms: it meets the failing store by itself.
  await failed;
  await clock.advance(1_000);
  t.true(failedFinds >= 1);
  t.true(warnings.includes('timer pass failed; trying again on the next one'));
  t.is(await rings(), 0, 'nothing fired while the store failed');

  failing = false;
  await clock.advance(0);
  t.is(await rings(), 1, 'the due timer fired once the store answered');
  await clock.advance(10_000);
  t.is(await rings(), 1, 'and only once');
});
