/**
 * The first start over a data folder written by the journal store (snapshots and
 * journal segments, issue 42 retired it) copies every document into LMDB, then moves
 * the old files aside into `journal-store-before-lmdb/`, which can be deleted once the
 * node runs. Indexes are not copied: each is built from the documents when its
 * collection is declared. A crash in the middle leaves the old files in place, and the
 * next start copies again from scratch, so a migration happens whole or not at all.
 */
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, RootDatabase } from 'lmdb';
import type { Logger } from 'pino';
import { documentsName, syncToDisk } from '../disk-table.js';
import { COMMIT_WITHOUT_FLUSH } from '../write-batch.js';
import { documentCodec } from '../document-codec.js';
import { journalName, listFolder, snapshotName } from './files.js';
import { scanFrames } from './frames.js';
import type { Change } from './records.js';
import { readChange } from './records.js';
import { readSnapshot } from './snapshot-file.js';

export const MIGRATED_FOLDER = 'journal-store-before-lmdb';
/** Changes per LMDB transaction while copying. */
const BATCH = 5_000;

export async function migrateJournalFolder(dir: string, openRoot: () => RootDatabase, logger?: Pick<Logger, 'info' | 'warn'>): Promise<void> {
  const { snapshots, journals, temporary } = await listFolder(dir);
  for (const path of temporary) await rm(path, { force: true });
  if (snapshots.length === 0 && journals.length === 0) return;
  const started = performance.now();
  await rm(join(dir, 'store'), { recursive: true, force: true });
  const root = openRoot();
  const copier = new Copier(root);
  try {
    const base = snapshots.at(-1) ?? 0;
    if (snapshots.length > 0) await readSnapshot(dir, base, (change) => copier.add(change));
    const segments = journals.filter((generation) => generation >= base);
    for (const [i, generation] of segments.entries()) {
      const path = join(dir, journalName(generation));
      const scan = await scanFrames(path, (payload) => copier.add(readChange(payload)));
      if (scan.validBytes !== scan.fileBytes && i !== segments.length - 1) {
        throw new Error(`journal ${path} is damaged at byte ${scan.validBytes} and later segments follow it; restore the data folder from a backup`);
      }
    }
    copier.commit();
    await syncToDisk(root);
  } finally {
    await root.close();
  }
  const aside = join(dir, MIGRATED_FOLDER);
  await mkdir(aside, { recursive: true });
  for (const generation of snapshots) await rename(join(dir, snapshotName(generation)), join(aside, snapshotName(generation)));
  for (const generation of journals) await rename(join(dir, journalName(generation)), join(aside, journalName(generation)));
  logger?.info(
    { dataDir: dir, documents: copier.documents, ms: Math.round(performance.now() - started), movedTo: aside },
    'embedded store migrated from its journal files to LMDB; the old files can be deleted once the node runs',
  );
}

/** Applies changes in order, a batch per transaction; a change to a document replaces it whole, as the journal recorded it. */
class Copier {
  readonly #root: RootDatabase;
  readonly #tables = new Map<string, Database<string, string>>();
  #batch: Change[] = [];
  #ids = new Set<string>();

  constructor(root: RootDatabase) {
    this.#root = root;
  }

  get documents(): number {
    return this.#ids.size;
  }

  add(change: Change): void {
    this.#batch.push(change);
    if (this.#batch.length >= BATCH) this.commit();
  }

  commit(): void {
    const batch = this.#batch;
    this.#batch = [];
    this.#root.transactionSync(() => {
      for (const change of batch) {
        const table = this.#table(change.collection);
        if ('put' in change) {
          table.putSync(change.put._id, documentCodec.encode(change.put));
          this.#ids.add(`${change.collection}\u0000${change.put._id}`);
        } else {
          for (const id of change.delete) {
            table.removeSync(id);
            this.#ids.delete(`${change.collection}\u0000${id}`);
          }
        }
      }
    }, COMMIT_WITHOUT_FLUSH);
  }

  #table(collection: string): Database<string, string> {
    let table = this.#tables.get(collection);
    if (!table) {
      table = this.#root.openDB<string, string>({ name: documentsName(collection), encoding: 'string' });
      this.#tables.set(collection, table);
    }
    return table;
  }
}
