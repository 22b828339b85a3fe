/**
 * The embedded store on disk under kill -9: a child process writing as fast as it can
 * is SIGKILLed mid-stream; every write it acknowledged is there after a reopen, at the
 * version acknowledged or a later one, with its index rows, and the folder opens.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { EmbeddedStore } from '../../../../actors/store/embedded-store.js';

const writer = fileURLToPath(new URL('../../../support/disk-writer.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'peer-disk-crash-'));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

test('disk: no acknowledged write is lost when the writing process is SIGKILLed mid-stream, and the folder opens', async (t) => {
  t.timeout(60_000);
  const dataDir = join(root, 'burst');
  const child = spawn(process.execPath, ['--import=tsx', writer, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acknowledged = new Map<string, number>();
  let buffered = '';
  const enough = new Promise<void>((resolve) => {
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      buffered += text;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [id, version] = line.split(' ');
        if (id && version !== undefined && id !== 'ready') acknowledged.set(id, Math.max(acknowledged.get(id) ?? 0, Number(version)));
      }
      if (acknowledged.size >= 3_000) resolve();
    });
  });
  await enough;
  child.kill('SIGKILL');
  await once(child, 'exit');

  const store = await EmbeddedStore.open({ dataDir });
  const docs = await store.collection({
    name: 'burst',
    indexes: [{ key: { group: 1, version: -1 } }, { key: { tag: 1 }, unique: true, partialFilterExpression: { tag: { $type: 'string' } } }],
  });
  const all = await docs.find({});
  const stored = new Map(all.map((doc) => [doc._id, doc.version as number]));
  const lost = [...acknowledged].filter(([id, version]) => (stored.get(id) ?? -1) < version);
  t.deepEqual(lost, [], 'every acknowledged write is there');
  t.true(stored.size >= acknowledged.size);
  for (let group = 0; group < 16; group++) {
    const listed = await docs.find({ group }, { sort: { version: -1 } });
    const expected = all.filter((doc) => doc.group === group).sort((a, b) => (b.version as number) - (a.version as number) || (a._id < b._id ? -1 : 1));
    t.deepEqual(
      listed.map((doc) => doc._id),
      expected.map((doc) => doc._id),
      `group ${group}: the index rows match the documents`,
    );
  }
  await t.throwsAsync(docs.insertOne({ _id: 'again', group: 0, version: 0, tag: 'td0' }), { message: /duplicate key/ });
  await docs.insertOne({ _id: 'after', group: 0, version: 0, tag: 'after' });
  t.is((await docs.findOne({ _id: 'after' }))?.tag, 'after', 'the store takes writes after the crash');
  await store.close();
});
