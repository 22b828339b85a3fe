/**
 * The enclave's measurement: a SHA-256 over its code bundle, every source file of
 * enclave/ but the platform simulator (a stand-in that runs outside it), by relative
 * path and content. Changing one byte of the code changes it, and the key-management
 * policy then refuses to release the signing key.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ENCLAVE_BUNDLE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Folders of enclave/ that are not part of the measured bundle. */
const OUTSIDE_THE_BUNDLE = new Set(['simulator']);

export async function measureBundle(dir: string = ENCLAVE_BUNDLE_DIR): Promise<string> {
  const files = (await listSources(dir, dir)).sort();
  const hash = createHash('sha256');
  for (const file of files) {
    const path = relative(dir, file).split(sep).join('/');
    const content = await readFile(file);
    // Length-prefixed, so moving bytes between a path and its content changes the hash.
    hash.update(`${path.length}:${path}${content.length}:`).update(content);
  }
  return `sha256:${hash.digest('hex')}`;
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
