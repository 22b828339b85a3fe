/**
 * The enclave's measurement: a SHA-256 over its code bundle, by path and content. The
 * bundle is every source file of enclave/ but the platform simulator (a stand-in that
 * runs outside it), plus every file of ours those import from outside enclave/ (the
 * money rules of machines/, the generated gRPC code), plus the lockfile (the exact
 * packages, viem and jose among them, that run beside it) and the runtime's version:
 * all of them decide what gets signed. Changing one byte of any changes the measurement,
 * and the key-management policy then refuses to release the signing key.
 */
import { createHash } from 'node:crypto';
import { access, readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENCLAVE_BUNDLE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Folders of enclave/ that are not part of the measured bundle. */
const OUTSIDE_THE_BUNDLE = new Set(['simulator']);

/** The file that pins every package the code runs with, beside the code's folders. */
const LOCKFILE = 'package-lock.json';

export async function measureBundle(dir: string = ENCLAVE_BUNDLE_DIR, runtime: string = `node/${process.version}`): Promise<string> {
  const root = dirname(resolve(dir));
  const lockfile = join(root, LOCKFILE);
  // Checked for presence only: the loop below reads it once, with the code.
  await access(lockfile).catch(() => {
    throw new Error(`${lockfile} is missing: the measurement covers the packages the enclave runs, which only the lockfile pins`);
  });
  const files = [...(await withImports(await listSources(dir, dir))), lockfile].sort();
  const hash = createHash('sha256');
  hash.update(`${runtime.length}:${runtime}`);
  for (const file of files) {
    const path = relative(root, file).split(sep).join('/');
    const content = await readFile(file);
    // Length-prefixed, so moving bytes between a path and its content changes the hash.
    hash.update(`${path.length}:${path}${content.length}:`).update(content);
  }
  return `sha256:${hash.digest('hex')}`;
}

const RELATIVE_IMPORT = /\bfrom\s+'(\.{1,2}\/[^']+)'|\bimport\s*\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

/** The files and, transitively, the files of ours they import (ESM `.js` specifiers name `.ts` sources). */
async function withImports(files: string[]): Promise<Set<string>> {
  const seen = new Set(files);
  const queue = [...files];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (!file.endsWith('.ts')) continue;
    const source = await readFile(file, 'utf8');
    for (const match of source.matchAll(RELATIVE_IMPORT)) {
      const target = resolve(dirname(file), (match[1] ?? match[2])!).replace(/\.js$/, '.ts');
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return seen;
}

async function listSources(root: string, dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return dir === root && OUTSIDE_THE_BUNDLE.has(entry.name) ? [] : listSources(root, path);
      return entry.isFile() && /\.(ts|js|json)$/.test(entry.name) ? [path] : [];
    }),
  );
  return nested.flat();
}
