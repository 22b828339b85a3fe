import test from 'ava';
import { EmbeddedStore } from '../../actors/index.js';
import { countingStore } from '../support/counting-store.js';
import { startTestGateway } from '../support/gateway.js';

const ORDERS = 20;

test('what one order create writes, once its effects have run', async (t) => {
  const store = countingStore(new EmbeddedStore());
  const gateway = await startTestGateway({}, { store });
  try {
    const { liveKey } = await gateway.createMerchant();
    const create = (i: number) => gateway.request('POST', '/api/v1/orders', { key: liveKey, body: { requestedUsdcAmount: String(i + 1), notes: { i } } });
    t.is((await create(0)).status, 201);
    await gateway.node.system.effectsIdle();
    store.reset();
    for (let i = 1; i <= ORDERS; i++) t.is((await create(i)).status, 201);
    await gateway.node.system.effectsIdle();
    const rows = [...store.tallies].map(([name, w]) => `${name}: ins ${w.inserts / ORDERS} rep ${w.replaces / ORDERS} upd ${w.updates / ORDERS} del ${w.deletes / ORDERS} bytes ${Math.round(w.bytes / ORDERS)}`);
    t.log(rows.join('\n'));
    const all = store.total();
    const orders = store.total((name) => name === 'actors_order');
    const sample = await gateway.node.system.documents("order").find({}, { limit: 1 });
    const h = await store.collection({ name: "actor_history", indexes: [] }).then((c) => c.find({}, { limit: 1 }));
    t.log(JSON.stringify(Object.fromEntries(Object.entries(sample[0]!).map(([k, v]) => [k, JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? String(x) : x))?.length]))));
    t.log(JSON.stringify(Object.fromEntries(Object.entries(h[0]!).map(([k, v]) => [k, JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? String(x) : x))?.length]))));
    t.log(`per create: writes ${(all.inserts + all.replaces + all.updates + all.deletes) / ORDERS}, bytes ${Math.round(all.bytes / ORDERS)}; order document writes ${(orders.inserts + orders.replaces) / ORDERS}`);
  } finally {
    await gateway.stop();
  }
});
