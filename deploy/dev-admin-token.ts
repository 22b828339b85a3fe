/**
 * In development on the embedded store, a node started without PEER_ADMIN_TOKEN makes one
 * and keeps it in DATA_DIR (mode 0600), so the engineers' page and the admin API work from
 * the first start, without a restart to set the variable. Later starts over the same folder
 * take the kept token. A token set in the environment always wins, and production never
 * gets one made: there the admin API stays off until an operator sets it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../actors/index.js';

const ADMIN_TOKEN_FILE = 'admin-token';
/** PEER_ADMIN_TOKEN's own rule (actors/config.ts): a kept token is held to it too. */
const MIN_TOKEN_LENGTH = 24;

export interface KeptAdminToken {
  token: string;
  /** Where it is kept. */
  file: string;
  /** Made by this start (shown once); false when an earlier start made it. */
  created: boolean;
}

/** The token kept for this node, made on its first start; null where none is made (see above). */
export async function keptAdminToken(config: Config, ownsDataDir: boolean): Promise<KeptAdminToken | null> {
  if (config.NODE_ENV !== 'development' || config.PEER_ADMIN_TOKEN !== undefined || config.MONGODB_URI || !ownsDataDir) return null;
  const file = resolve(join(config.DATA_DIR, ADMIN_TOKEN_FILE));
  const kept = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (kept !== null) {
    const token = kept.trim();
    if (token.length < MIN_TOKEN_LENGTH)
      throw new Error(`${file} holds no admin token of at least ${MIN_TOKEN_LENGTH} characters: delete it to have a new one made, or set PEER_ADMIN_TOKEN`);
    return { token, file, created: false };
  }
  const token = randomBytes(32).toString('base64url');
  await mkdir(config.DATA_DIR, { recursive: true });
  // `wx`: never over a file another start wrote in the meantime; the mode is set as the file is made, so it is never readable by others.
  await writeFile(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return { token, file, created: true };
}
