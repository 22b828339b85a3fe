/**
 * A data folder the journal store wrote (test/fixtures/legacy-data-folder.tar.gz: a node
 * of the journal store's last commit, 38e3e3d, took 30 orders and was SIGKILLed; the
 * folder was compacted once, and a second run changed an order before it was killed, so
 * the folder holds a snapshot and a journal tail. The counts below are what the journal
 * store itself read from it) opens
 * on the LMDB store: every document is copied, the indexes are built when declared, the
 * old files are moved aside, and a second open migrates nothing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { MIGRATED_FOLDER } from '../../../../actors/store/disk/legacy/migrate-journal-folder.js';
import { EmbeddedStore } from '../../../../actors/store/embedded-store.js';
import { actorCollectionSpec } from '../../../../actors/runtime/actor-document.js';
import type { IndexSpec } from '../../../../actors/store/store.js';

const fixture = fileURLToPath(new URL('../../../fixtures/legacy-data-folder.tar.gz', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'peer-migration-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

function unpack(name: string): string {
  const dataDir = join(root, name);
  execFileSync('mkdir', ['-p', dataDir]);
  execFileSync('tar', ['xzf', fixture, '-C', dataDir]);
  return dataDir;
}

const ORDER_VIEW_INDEXES: IndexSpec[] = [{ key: { 'view.merchantId': 1, 'view.environment': 1, 'view.createdAt': -1 }, name: 'orders_by_merchant' }];

test('migration: a journal store folder opens on LMDB with every document, its indexes built, the old files moved aside', async (t) => {
  const dataDir = unpack('first');
  t.deepEqual(readdirSync(dataDir).sort(), ['journal-000000000001.log', 'snapshot-000000000001.snap']);
  const logged: unknown[] = [];
  const store = await EmbeddedStore.open({ dataDir, logger: { info: (entry: unknown) => logged.push(entry), warn: () => undefined, error: () => undefined } });
  const orders = await store.collection(actorCollectionSpec('order', ORDER_VIEW_INDEXES));
  const all = await orders.find({});
  t.is(all.length, 30);
  t.is((await orders.findOne({ _id: 'ord_cdpxLwCQwxKh2LpMu06SmJML' }))?.version, 2, 'the change the journal tail holds is applied over the snapshot');
  t.true(all.every((doc) => typeof doc.version === 'number' && doc.kind === 'order'));
  const [merchantId, environment] = [(all[0]!.view as { merchantId: string }).merchantId, (all[0]!.view as { environment: string }).environment];
  const newest = await orders.find({ 'view.merchantId': merchantId, 'view.environment': environment }, { sort: { 'view.createdAt': -1 }, limit: 3 });
  const expected = all
    .filter((doc) => (doc.view as { merchantId: string }).merchantId === merchantId)
    .map((doc) => (doc.view as { createdAt: string }).createdAt)
    .sort()
    .reverse()
    .slice(0, 3);
  t.deepEqual(
    newest.map((doc) => (doc.view as { createdAt: string }).createdAt),
    expected,
    'an index declared after the migration answers',
  );
  t.is(await (await store.collection({ name: 'actors_merchant', indexes: [] })).count({}), 2, 'the live and sandbox merchants');
  t.is(await (await store.collection({ name: 'bus_events', indexes: [] })).count({}), 30);
  t.is(await (await store.collection({ name: 'actor_history', indexes: [] })).count({}), 36);
  t.is(await (await store.collection({ name: 'merchant_events', indexes: [] })).count({}), 30);
  await store.close();

  t.true(existsSync(join(dataDir, MIGRATED_FOLDER, 'snapshot-000000000001.snap')));
  t.true(existsSync(join(dataDir, MIGRATED_FOLDER, 'journal-000000000001.log')));
  t.false(readdirSync(dataDir).some((name) => name.endsWith('.log') || name.endsWith('.snap')));
  t.like(logged[0], { movedTo: join(dataDir, MIGRATED_FOLDER) });

  logged.length = 0;
  const again = await EmbeddedStore.open({ dataDir, logger: { info: (entry: unknown) => logged.push(entry), warn: () => undefined, error: () => undefined } });
  t.is(await (await again.collection(actorCollectionSpec('order', ORDER_VIEW_INDEXES))).count({}), 30);
  t.deepEqual(logged, [], 'nothing is migrated twice');
  await again.close();
});

test('migration: a migration cut short (LMDB half written, the old files still there) is done again from the files', async (t) => {
  const dataDir = unpack('cut');
  const store = await EmbeddedStore.open({ dataDir });
  await store.close();
  const reopened = await EmbeddedStore.open({ dataDir });
  const orders = await reopened.collection(actorCollectionSpec('order'));
  t.is(await orders.count({}), 30);
  await orders.insertOne({ _id: 'ord_extra', kind: 'order' });
  await reopened.close();
  // As if the process had died before moving the files aside: they are back, and LMDB holds a document they do not.
  execFileSync('tar', ['xzf', fixture, '-C', dataDir]);
  const redone = await EmbeddedStore.open({ dataDir });
  t.is(await (await redone.collection(actorCollectionSpec('order'))).count({}), 30, 'the copy starts over from the old files');
  await redone.close();
});
