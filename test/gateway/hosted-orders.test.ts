import test from 'ava';
import { EmbeddedStore, type Store } from '../../actors/index.js';
import { merchantKind, orderKind } from '../../actors/kinds/index.js';
import { RateSource, RateUnavailableError, type RateProvider } from '../../actors/adapters/rates/rate-source.js';
import { parseRate } from '../../machines/money.js';
import type { OrderInput } from '../../machines/order/index.js';
import { HostedOrders } from '../../gateway/orders/hosted-orders.js';
import { MerchantAccounts } from '../../gateway/merchants/merchant-accounts.js';
import { MerchantAdmin } from '../../gateway/merchants/merchant-admin.js';
import type { Rendered } from '../../gateway/envelope.js';
import { watchedStore } from '../support/watched-store.js';
import { LocalCluster } from '../support/local-cluster.js';
import { fixedOrderInput, openOrderInput } from '../support/order-input.js';
import { startTestSystem } from '../support/test-node.js';

const now = () => '2026-11-23T12:00:00.000Z';

/** A provider whose EUR rate the test turns off, as a provider gone stale is. */
class SwitchableRates implements RateProvider {
  stale = false;
  async currencyPerUsd(currency: string): Promise<bigint | null> {
    if (this.stale) throw new RateUnavailableError('the last EUR rate is too old');
    return currency === 'EUR' ? parseRate('0.92') : null;
  }
}

const body = (answer: Rendered | null) => JSON.parse(answer!.body.toString()) as { statusCode: number; responseObject: any };

async function setUp(store: Store = new EmbeddedStore()) {
  const provider = new SwitchableRates();
  const { system } = await startTestSystem({ kinds: [merchantKind, orderKind], store });
  const admin = new MerchantAdmin(system, now);
  const { merchant } = await admin.create({ name: 'Acme', tier: 'BASE' });
  const hosted = new HostedOrders(system, new MerchantAccounts(system), new RateSource(provider));
  const create = (input: OrderInput) => system.askAt({ kind: 'order', id: input.id }, { type: 'CREATE', ...input, merchantId: merchant.id });
  return { system, admin, merchant, hosted, provider, create };
}

test('on a node serving every shard a kept answer reads nothing, and an order write, a merchant change or a stale rate is seen by the next read', async (t) => {
  const watched = watchedStore(new EmbeddedStore(), 'actors_order');
  const { system, admin, merchant, hosted, provider, create } = await setUp(watched.store);
  await create(fixedOrderInput());
  await create(openOrderInput());

  t.is(await hosted.answer('ord_missing'), null);
  const first = await hosted.answer('ord_fixed');
  t.like(body(first), { statusCode: 200, responseObject: { order: { id: 'ord_fixed', status: 'CREATED' }, merchant: { name: 'Acme' }, currentPayment: null } });
  const reads = watched.reads.length;
  t.is(await hosted.answer('ord_fixed'), first, 'the same bytes, rendered once');
  t.is(watched.reads.length, reads, 'a hit reads nothing');

  await system.askAt({ kind: 'order', id: 'ord_fixed' }, { type: 'CANCEL', at: '2026-11-23T13:00:00.000Z' });
  t.is(body(await hosted.answer('ord_fixed')).responseObject.order.status, 'CANCELLED', 'the write is seen by the very next read');

  await admin.update(merchant.id, { defaultPaymentCurrency: 'EUR' });
  t.is(body(await hosted.answer('ord_fixed')).responseObject.merchant.defaultPaymentCurrency, 'EUR');

  t.like(body(await hosted.answer('ord_open')).responseObject.order.openAmount, { effectiveMin: '5.00', effectiveMax: '500.00' });
  provider.stale = true;
  t.like(body(await hosted.answer('ord_open')).responseObject.order.openAmount, { effectiveMin: null, effectiveMax: null }, 'no range while no rate prices it');
  provider.stale = false;
  t.like(body(await hosted.answer('ord_open')).responseObject.order.openAmount, { effectiveMin: '5.00', effectiveMax: '500.00' });
});

test('an answer read while its order is being written is answered but not kept', async (t) => {
  const watched = watchedStore(new EmbeddedStore(), 'actors_order');
  const { system, hosted, create } = await setUp(watched.store);
  await create(fixedOrderInput());

  const open = watched.hold();
  const racing = hosted.answer('ord_fixed');
  // The read has taken its document and waits at the gate while the order is cancelled.
  await system.askAt({ kind: 'order', id: 'ord_fixed' }, { type: 'CANCEL', at: '2026-11-23T13:00:00.000Z' });
  open();
  t.is(body(await racing).responseObject.order.status, 'CREATED', 'a read concurrent with the write may see the order before it');
  t.is(body(await hosted.answer('ord_fixed')).responseObject.order.status, 'CANCELLED', 'but what it read was not kept');
});

test('in a cluster a kept answer is checked against the stored version, so a write through another node is seen by the next read', async (t) => {
  const cluster = new LocalCluster(16);
  const shared = new EmbeddedStore();
  const watched = watchedStore(shared, 'actors_order');
  const reader = await startTestSystem({ kinds: [merchantKind, orderKind], store: watched.store, transport: cluster.transport() });
  const writer = await startTestSystem({ kinds: [merchantKind, orderKind], store: shared, transport: cluster.transport() });
  for (let shard = 0; shard < 16; shard++) cluster.assign(shard, writer.system.transport as ReturnType<LocalCluster['transport']>);
  const { merchant } = await new MerchantAdmin(writer.system, now).create({ name: 'Acme', tier: 'BASE' });
  await writer.system.askAt({ kind: 'order', id: 'ord_fixed' }, { type: 'CREATE', ...fixedOrderInput(), merchantId: merchant.id });
  const hosted = new HostedOrders(reader.system, new MerchantAccounts(reader.system), new RateSource(new SwitchableRates()));

  const first = await hosted.answer('ord_fixed');
  watched.reads.length = 0;
  t.is(await hosted.answer('ord_fixed'), first);
  t.deepEqual(watched.reads, [{ filter: { _id: 'ord_fixed' }, fields: ['version'] }], 'a hit reads the version only');

  await writer.system.askAt({ kind: 'order', id: 'ord_fixed' }, { type: 'CANCEL', at: '2026-11-23T13:00:00.000Z' });
  t.is(body(await hosted.answer('ord_fixed')).responseObject.order.status, 'CANCELLED');
});
