import test from 'ava';
import { EmbeddedStore } from '../../actors/index.js';
import { merchantKind } from '../../actors/kinds/index.js';
import { hashApiKey } from '../../gateway/auth/api-keys.js';
import { MerchantAccounts } from '../../gateway/merchants/merchant-accounts.js';
import { MerchantAdmin } from '../../gateway/merchants/merchant-admin.js';
import { watchedStore } from '../support/watched-store.js';
import { LocalCluster } from '../support/local-cluster.js';
import { startTestSystem } from '../support/test-node.js';

const now = () => '2026-11-23T12:00:00.000Z';

test('on a node serving every shard a kept account reads nothing, and a rotation or a settings change is seen by the next lookup', async (t) => {
  const watched = watchedStore(new EmbeddedStore(), 'actors_merchant');
  const { system } = await startTestSystem({ kinds: [merchantKind], store: watched.store });
  const admin = new MerchantAdmin(system, now);
  const accounts = new MerchantAccounts(system);
  const { merchant, liveApiKey } = await admin.create({ name: 'Acme', tier: 'BASE' });

  const first = await accounts.byKeyHash(hashApiKey(liveApiKey));
  t.is(first!.merchantId, merchant.id);
  const readsAfterFirst = watched.reads.length;
  t.is((await accounts.byKeyHash(hashApiKey(liveApiKey)))!.merchantId, merchant.id);
  t.is((await accounts.byId(merchant.id))!.profile.name, 'Acme');
  t.is(watched.reads.length, readsAfterFirst, 'hits read nothing');
  t.true(Object.isFrozen(first!.profile.merchantConfig), 'a kept account is shared, so nobody may change it');

  const { apiKey: rotated } = await admin.rotateApiKey(merchant.id, 'LIVE');
  t.is(await accounts.byKeyHash(hashApiKey(liveApiKey)), null, 'the old key is refused at once');
  t.is((await accounts.byKeyHash(hashApiKey(rotated)))!.merchantId, merchant.id);

  await admin.update(merchant.id, { defaultPaymentCurrency: 'EUR' });
  t.is((await accounts.byId(merchant.id))!.profile.merchantConfig.defaultPaymentCurrency, 'EUR');
});

test('an account read while its merchant is being written is answered but not kept', async (t) => {
  const watched = watchedStore(new EmbeddedStore(), 'actors_merchant');
  const { system } = await startTestSystem({ kinds: [merchantKind], store: watched.store });
  const admin = new MerchantAdmin(system, now);
  const accounts = new MerchantAccounts(system);
  const { merchant, liveApiKey } = await admin.create({ name: 'Acme', tier: 'BASE' });

  const open = watched.hold();
  const racing = accounts.byKeyHash(hashApiKey(liveApiKey));
  // The read has taken its document and waits at the gate while the key is rotated.
  await admin.rotateApiKey(merchant.id, 'LIVE');
  open();
  t.is((await racing)!.merchantId, merchant.id, 'a lookup concurrent with the rotation may see either key');
  t.is(await accounts.byKeyHash(hashApiKey(liveApiKey)), null, 'but what it read was not kept');
});

test('in a cluster a kept account is checked against the stored version, so a write through another node is seen by the next lookup', async (t) => {
  const cluster = new LocalCluster(16);
  const shared = new EmbeddedStore();
  const watched = watchedStore(shared, 'actors_merchant');
  const reader = await startTestSystem({ kinds: [merchantKind], store: watched.store, transport: cluster.transport() });
  const writer = await startTestSystem({ kinds: [merchantKind], store: shared, transport: cluster.transport() });
  for (let shard = 0; shard < 16; shard++) cluster.assign(shard, writer.system.transport as ReturnType<LocalCluster['transport']>);
  const admin = new MerchantAdmin(writer.system, now);
  const accounts = new MerchantAccounts(reader.system);
  const { merchant, liveApiKey } = await admin.create({ name: 'Acme', tier: 'BASE' });

  t.is((await accounts.byKeyHash(hashApiKey(liveApiKey)))!.merchantId, merchant.id);
  watched.reads.length = 0;
  t.is((await accounts.byKeyHash(hashApiKey(liveApiKey)))!.merchantId, merchant.id);
  t.deepEqual(watched.reads, [{ filter: { _id: merchant.id }, fields: ['version'] }], 'a hit reads the version only');

  await admin.rotateApiKey(merchant.id, 'LIVE');
  t.is(await accounts.byKeyHash(hashApiKey(liveApiKey)), null);
  await admin.update(merchant.id, { defaultPaymentCurrency: 'EUR' });
  t.is((await accounts.byId(merchant.id))!.profile.merchantConfig.defaultPaymentCurrency, 'EUR');
});
