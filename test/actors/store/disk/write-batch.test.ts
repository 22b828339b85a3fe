import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { open } from 'lmdb';
import { WriteBatch } from '../../../../actors/store/disk/write-batch.js';

const root = mkdtempSync(join(tmpdir(), 'peer-write-batch-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

test('write batch: writes are read at once through the open transaction and kept by the commit; their documents count as unsynced until the sync ends', async (t) => {
  const env = open({ path: join(root, 'kept'), overlappingSync: false });
  const db = env.openDB<string, string>({ name: 'd', encoding: 'string' });
  const batch = new WriteBatch(env);
  batch.run(() => db.putSync('a', 'A'), ['d\u0000a']);
  t.is(db.get('a'), 'A', 'seen before the commit');
  batch.run(() => db.putSync('b', 'B'), ['d\u0000b']);
  t.true(batch.unsynced('d\u0000a'));
  t.false(batch.unsynced('d\u0000c'), 'a document no write touched');
  let release!: () => void;
  const syncing = batch.commitAndSync(() => new Promise<void>((resolve) => (release = resolve)));
  await new Promise((resolve) => setImmediate(resolve));
  t.true(batch.unsynced('d\u0000b'), 'still unsynced while its sync runs');
  release();
  await syncing;
  t.false(batch.unsynced('d\u0000b'));
  t.deepEqual([db.get('a'), db.get('b')], ['A', 'B']);
  await env.close();
});

test('write batch: a change that fails part way aborts the whole batch, earlier writes included', async (t) => {
  const env = open({ path: join(root, 'aborted'), overlappingSync: false });
  const db = env.openDB<string, string>({ name: 'd', encoding: 'string' });
  const batch = new WriteBatch(env);
  batch.run(() => db.putSync('before', '1'), ['d\u0000before']);
  t.throws(() =>
    batch.run(() => {
      db.putSync('half', '1');
      throw new Error('map full');
    }, ['d\u0000half']),
  );
  await t.throwsAsync(
    batch.commitAndSync(async () => undefined),
    { message: 'map full' },
  );
  t.is(db.get('before'), undefined);
  t.is(db.get('half'), undefined);
  batch.run(() => db.putSync('after', '1'), ['d\u0000after']);
  await batch.commitAndSync(async () => undefined);
  t.is(db.get('after'), '1', 'the next batch starts afresh');
  await env.close();
});
