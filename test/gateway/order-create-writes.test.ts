/**
 * What one order create costs the store, counted through a store wrapper: one write of
 * the order's document (its effects' removal rides on the order's next write), one
 * history row holding what changed rather than the snapshot again, the bus's event and
 * the merchant's event log. Before: two order writes, 5.2 writes and 16.5 KB of JSON.
 */
import test from 'ava';
import { EmbeddedStore, HISTORY_COLLECTION } from '../../actors/index.js';
import { countingStore } from '../support/counting-store.js';
import { startTestGateway } from '../support/gateway.js';
import { eventually } from '../support/nats.js';

const ORDERS = 20;

test('an order create writes its document once, and about 9 KB of JSON in all', async (t) => {
  const store = countingStore(new EmbeddedStore());
  const gateway = await startTestGateway({}, { store });
  try {
    const { liveKey } = await gateway.createMerchant();
    const create = (i: number) => gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: String(i + 1), notes: { i } } });
    t.is((await create(0)).status, 201);
    await gateway.node.system.effectsIdle();
    store.reset();

    for (let i = 1; i <= ORDERS; i++) t.is((await create(i)).status, 201);
    // Every create's event has reached the merchant's log and every turn its history row; sweeps run meanwhile.
    await eventually(
      () => store.tallies.get('merchant_events')?.inserts === ORDERS && store.tallies.get(HISTORY_COLLECTION)?.inserts === ORDERS,
      'the effects and history of every create',
    );
    for (let i = 0; i < 3; i++) await gateway.clock.advance(1_000);

    const orders = store.tallies.get('actors_order')!;
    const history = store.tallies.get(HISTORY_COLLECTION)!;
    const all = store.total();
    // The bus's consumer positions are its own, moved for batches of events, not per create.
    const counted = store.total((name) => name !== 'bus_positions');
    const writes = (counted.inserts + counted.replaces + counted.updates + counted.deletes) / ORDERS;
    t.log(
      [...store.tallies].map(
        ([name, w]) =>
          `${name}: inserts ${w.inserts / ORDERS}, replaces ${w.replaces / ORDERS}, updates ${w.updates / ORDERS}, bytes ${Math.round(w.bytes / ORDERS)}`,
      ),
    );
    t.log(`per create: ${writes} writes besides the bus's positions, ${Math.round(all.bytes / ORDERS)} bytes of JSON`);
    t.is(orders.inserts + orders.replaces, ORDERS, 'one write of the order’s document per create');
    t.true(history.bytes / ORDERS < 1_600, `a history row without the snapshot: ${Math.round(history.bytes / ORDERS)} bytes`);
    t.true(all.bytes / ORDERS < 11_000, `${Math.round(all.bytes / ORDERS)} bytes per create`);
    t.is(writes, 4, 'the order, its history row, the bus’s event, the merchant’s event');
  } finally {
    await gateway.stop();
  }
});
