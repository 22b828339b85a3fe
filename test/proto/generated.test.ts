import test from 'ava';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { bufBinaryPath } from '../../proto/buf.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const committed = join(root, 'proto/gen');

async function files(dir: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    // What buf writes is TypeScript; npm test runs a copy of the tree with the build's .js beside it.
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const path = join(entry.parentPath, entry.name);
    found.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return found;
}

test('the committed ts-proto output is what the .proto files generate', async (t) => {
  const out = await mkdtemp(join(tmpdir(), 'proto-gen-'));
  try {
    // The same template as `npm run proto`, written to a scratch directory instead of proto/gen.
    const template = (await readFile(join(root, 'buf.gen.yaml'), 'utf8')).replace(/out: proto\/gen/, `out: ${out}`);
    t.not(template, await readFile(join(root, 'buf.gen.yaml'), 'utf8'), 'buf.gen.yaml writes to proto/gen');
    await promisify(execFile)(bufBinaryPath(), ['generate', '--template', template], { cwd: root });
    const [expected, actual] = [await files(out), await files(committed)];
    t.true(expected.size > 0);
    t.deepEqual([...actual.keys()].sort(), [...expected.keys()].sort(), 'the same files');
    for (const [path, content] of expected) t.is(actual.get(path), content, `${path} is stale: run npm run proto`);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});
