/**
 * What an embedded node loads before it serves. mongoose with the MongoDB driver and
 * mailauth were a fifth of a fresh process's start (and of every test process that
 * starts a node) while an embedded node never calls them: they load on first use.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The CommonJS packages (every module of these is CommonJS) a fresh process holds after importing `entry`. */
async function packagesLoadedBy(entry: string): Promise<string[]> {
  const script = `
    import { createRequire } from 'node:module';
    await import(${JSON.stringify(entry)});
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    console.log(JSON.stringify([...new Set(loaded.map((path) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(path)?.[1]).filter(Boolean))]));
  `;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import=tsx', '--input-type=module', '-e', script], { cwd: root });
  return JSON.parse(stdout) as string[];
}

test('importing the node loads neither MongoDB’s libraries nor the DKIM library, which only a MongoDB deployment or a dispute uses', async (t) => {
  const loaded = await packagesLoadedBy('./deploy/node.ts');
  // The probe sees CommonJS packages: without one it would pass for any import.
  t.true(loaded.includes('koa'), `the probe saw ${loaded.join(', ')}`);
  for (const lazy of ['mongoose', 'mongodb', 'mailauth']) t.false(loaded.includes(lazy), `${lazy} is loaded at start`);
});
