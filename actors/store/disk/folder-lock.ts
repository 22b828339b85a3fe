/**
 * One process per data folder. The lock is a file, `LOCK`, holding the owner's pid;
 * it is made whole under a temporary name and linked in, and link() fails when the
 * name exists, so two processes cannot both create it and nobody ever reads it half
 * written. A lock whose pid is no longer alive (its process was SIGKILLed) is taken
 * over, so a restart right after a crash is not blocked.
 *
 * Node has no flock(), which the kernel would release on death; npm's lock libraries
 * (proper-lockfile and the like) decide staleness by age, which blocks a restart for
 * their stale period. What this does not handle, said in docs/embedded-store.md: a
 * recycled pid (a dead owner whose pid now names another live process reads as alive),
 * processes in other pid namespaces or on other hosts sharing the folder, and a
 * process killed inside the microseconds of a takeover while two others start.
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PlatformError } from '../../errors/platform-error.js';

export class FolderLockedError extends PlatformError {
  override readonly name = 'FolderLockedError';
  readonly code = 'FOLDER_LOCKED';
}

interface Holder {
  pid: number;
  host: string;
  nonce: string;
}

export interface FolderLock {
  readonly path: string;
  release(): Promise<void>;
}

export async function lockFolder(dir: string): Promise<FolderLock> {
  const path = join(dir, 'LOCK');
  const me: Holder = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString('hex') };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (await createWhole(path, me)) {
      let released = false;
      return {
        path,
        async release() {
          if (released) return;
          released = true;
          // Never remove a lock someone else now holds.
          if ((await readHolder(path))?.nonce === me.nonce) await unlink(path).catch(() => undefined);
        },
      };
    }
    const holder = await readHolder(path);
    if (!holder) continue; // released meanwhile
    if (isAlive(holder.pid)) {
      throw new FolderLockedError(
        `the data folder ${dir} is in use by process ${holder.pid} on ${holder.host} (lock file ${path}); stop that process, or set DATA_DIR to another folder`,
      );
    }
    await takeOver(path, holder);
  }
  throw new FolderLockedError(`could not lock the data folder ${dir}: its lock file ${path} keeps changing hands`);
}

/** Removes the dead holder's lock, under a short-lived second lock so that two processes taking over cannot each remove the other's new lock. */
async function takeOver(path: string, dead: Holder): Promise<void> {
  const guard = `${path}.takeover`;
  const me: Holder = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString('hex') };
  if (!(await createWhole(guard, me))) {
    const other = await readHolder(guard);
    // A guard left by a process killed mid-takeover: remove it and let the caller try again.
    if (other && !isAlive(other.pid)) await unlink(guard).catch(() => undefined);
    return;
  }
  try {
    if ((await readHolder(path))?.nonce === dead.nonce) await unlink(path).catch(() => undefined);
  } finally {
    await unlink(guard).catch(() => undefined);
  }
}

/** Creates `path` holding `holder`, or returns false when it exists. */
async function createWhole(path: string, holder: Holder): Promise<boolean> {
  const temporary = `${path}.${holder.pid}.${holder.nonce}.tmp`;
  await writeFile(temporary, JSON.stringify(holder), { flush: true });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readHolder(path: string): Promise<Holder | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Holder;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new FolderLockedError(`the lock file ${path} is not ours or is damaged (${(error as Error).message}); remove it if no process uses the folder`, {
      cause: error,
    });
  }
}

/** Signal 0 checks existence; EPERM means a process of another user holds the pid, which is alive too. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
