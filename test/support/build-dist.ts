/**
 * Builds the tree once into dist/ for `npm test`, so ava's 200-odd worker processes load
 * JavaScript instead of each transforming the same modules again through tsx's loader.
 *
 * dist/ is a copy of the tree with a `.js` (and its source map, pointing at the source) beside
 * every `.ts`. The copy keeps every path one file reads relative to another (CSS, contracts,
 * fixtures, docs, package.json, the scripts tests start with tsx) where it was, so code reads
 * the same files from dist/ as from the tree. It is made again from nothing on each run, and
 * every file is found rather than listed: a moved or new file is built the day it exists.
 *
 * Run with `tsx test/support/build-dist.ts` (npm test does).
 */
import { build } from 'esbuild';
import { cp, mkdir, readdir, rm, symlink } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OUT = join(ROOT, 'dist');

/** Top-level entries that are not code or what code reads: tools, installs, state, the output. */
const LEFT_OUT = new Set(['node_modules', 'dist', 'data', 'coverage']);

/** What the type-check keeps in dist/ between runs (tsconfig.json's tsBuildInfoFile): not ours to clear. */
const KEPT = '.tsc';

async function sourcesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

const started = performance.now();
await mkdir(OUT, { recursive: true });
await Promise.all((await readdir(OUT)).filter((name) => name !== KEPT).map((name) => rm(join(OUT, name), { recursive: true, force: true })));
const copied = (await readdir(ROOT, { withFileTypes: true })).filter((entry) => !entry.name.startsWith('.') && !LEFT_OUT.has(entry.name));
await Promise.all(copied.map((entry) => cp(join(ROOT, entry.name), join(OUT, entry.name), { recursive: true })));
// Tools a test runs from the root by a relative path (buf's ts-proto plugin) find node_modules/ there.
await symlink('../node_modules', join(OUT, 'node_modules'), 'dir');
const entryPoints = (await Promise.all(copied.filter((entry) => entry.isDirectory()).map((entry) => sourcesUnder(join(ROOT, entry.name))))).flat();

// tsx's own transform (esbuild, this runtime as the target, names kept), so the code that
// runs is what `npx ava` and `npm start` run from the sources.
await build({
  entryPoints,
  outdir: OUT,
  outbase: ROOT,
  format: 'esm',
  platform: 'node',
  target: `node${process.versions.node}`,
  keepNames: true,
  sourcemap: true,
  logLevel: 'warning',
});
console.log(`built ${entryPoints.length} modules into ${relative(ROOT, OUT)}/ in ${Math.round(performance.now() - started)} ms`);
