/**
 * The disk side of the durable embedded store: the folder lock, recovery into the
 * store's tables, the journal every change goes to, and compaction. The store keeps
 * answering from memory (mingo, the same engine as the in-memory store); this only
 * decides when an answer may be given: a write once its record is durable, a read
 * once every write it could have seen is.
 */
import { mkdir, rm, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { journalName, listFolder, snapshotName } from './files.js';
import { lockFolder, type FolderLock } from './folder-lock.js';
import { scanFrames } from './frames.js';
import { Journal } from './journal.js';
import { readChange, type Change } from './records.js';
import { readSnapshot, writeSnapshot, type Tables } from './snapshot-file.js';

export interface DurableOptions {
  dataDir: string;
  /** Compact once the journal outgrows both this and the last snapshot. Default 64 MiB. */
  compactAtBytes?: number;
  /** Told of recovery and compaction. */
  logger?: Pick<Logger, 'info' | 'error'>;
}

/** What the store lends the log: how to load recovered changes, and its current documents for a snapshot. */
export interface TableAccess {
  apply(change: Change): void;
  /** Every collection's documents in natural order, captured now; the store never changes these objects in place. */
  capture(): Tables;
}

const DEFAULT_COMPACT_AT = 64 * 1024 * 1024;

export class DurableLog {
  readonly dataDir: string;
  readonly #lock: FolderLock;
  readonly #journal: Journal;
  readonly #tables: TableAccess;
  readonly #compactAt: number;
  readonly #logger: DurableOptions['logger'];
  #generation: number;
  #snapshotBytes: number;
  #compaction: Promise<void> | null = null;
  #closing = false;

  private constructor(
    dataDir: string,
    lock: FolderLock,
    journal: Journal,
    tables: TableAccess,
    generation: number,
    snapshotBytes: number,
    options: DurableOptions,
  ) {
    this.dataDir = dataDir;
    this.#lock = lock;
    this.#journal = journal;
    this.#tables = tables;
    this.#generation = generation;
    this.#snapshotBytes = snapshotBytes;
    this.#compactAt = options.compactAtBytes ?? DEFAULT_COMPACT_AT;
    this.#logger = options.logger;
  }

  /** Locks the folder (creating it), loads it into `tables`, and opens the journal. */
  static async open(options: DurableOptions, tables: TableAccess): Promise<DurableLog> {
    const dir = resolve(options.dataDir);
    await mkdir(dir, { recursive: true });
    const lock = await lockFolder(dir);
    try {
      const started = performance.now();
      const { generation, snapshotBytes, journalBytes, records, dropped } = await recover(dir, tables);
      const journal = await Journal.open(join(dir, journalName(generation)), journalBytes);
      const log = new DurableLog(dir, lock, journal, tables, generation, snapshotBytes, options);
      log.#logger?.info(
        { dataDir: dir, generation, snapshotBytes, journalBytes, records, droppedBytes: dropped, ms: Math.round(performance.now() - started) },
        'embedded store recovered',
      );
      log.#maybeCompact();
      return log;
    } catch (error) {
      await lock.release();
      throw error;
    }
  }

  /** Set once the journal failed: memory may be ahead of the disk, so nothing more may be answered. */
  get failure(): Error | null {
    return this.#journal.failure;
  }

  /** Queues a change already applied in memory; resolves once it is durable. */
  append(frame: Buffer): Promise<void> {
    const durable = this.#journal.append(frame);
    this.#maybeCompact();
    return durable;
  }

  /** Null when every applied change is durable, so reads then cost nothing extra. */
  settled(): Promise<void> | null {
    return this.#journal.settled();
  }

  /** Compacts now (tests); resolves when the new snapshot is in place. */
  async compact(): Promise<void> {
    this.#compaction ??= this.#compact().finally(() => (this.#compaction = null));
    await this.#compaction;
  }

  /** Flushes the journal, stops a compaction in progress (its temporary file is removed at the next open) and releases the folder. */
  async close(): Promise<void> {
    this.#closing = true;
    await this.#compaction?.catch(() => undefined);
    await this.#journal.close();
    await this.#lock.release();
  }

  #maybeCompact(): void {
    if (this.#compaction || this.#closing || this.#journal.failure) return;
    if (this.#journal.bytes <= Math.max(this.#compactAt, this.#snapshotBytes)) return;
    this.compact().catch((error: unknown) =>
      this.#logger?.error({ err: error, dataDir: this.dataDir }, 'embedded store compaction failed; the journal keeps growing'),
    );
  }

  /**
   * The capture and the switch of journal segment happen in one synchronous step, so
   * the snapshot holds exactly what the old segments hold, and the new segment every
   * change after it.
   */
  async #compact(): Promise<void> {
    const started = performance.now();
    const generation = this.#generation + 1;
    const tables = this.#tables.capture();
    const rotated = this.#journal.rotate(join(this.dataDir, journalName(generation)));
    this.#generation = generation;
    const size = await writeSnapshot(this.dataDir, generation, tables, () => this.#closing);
    if (size === null) return;
    this.#snapshotBytes = size;
    // The old segment may still be taking its last batch; it is no longer needed once the new snapshot is in.
    await rotated;
    const { snapshots, journals } = await listFolder(this.dataDir);
    for (const old of snapshots.filter((g) => g < generation)) await unlink(join(this.dataDir, snapshotName(old)));
    for (const old of journals.filter((g) => g < generation)) await unlink(join(this.dataDir, journalName(old)));
    this.#logger?.info(
      {
        dataDir: this.dataDir,
        generation,
        snapshotBytes: size,
        documents: tables.reduce((n, [, docs]) => n + docs.length, 0),
        ms: Math.round(performance.now() - started),
      },
      'embedded store compacted',
    );
  }
}

interface Recovered {
  generation: number;
  snapshotBytes: number;
  /** Intact bytes of the last segment, where appending resumes. */
  journalBytes: number;
  records: number;
  dropped: number;
}

/**
 * The newest snapshot, then every journal segment from its generation on. Only the
 * last segment can end in a torn record (a segment is synced whole before the next
 * one takes a write); that tail is dropped. A damaged earlier segment stops recovery,
 * as later segments may build on what it lost.
 */
async function recover(dir: string, tables: TableAccess): Promise<Recovered> {
  const { snapshots, journals, temporary } = await listFolder(dir);
  for (const path of temporary) await rm(path, { force: true });
  const base = snapshots.at(-1) ?? 0;
  const snapshotBytes = snapshots.length > 0 ? await readSnapshot(dir, base, (change) => tables.apply(change)) : 0;
  const segments = journals.filter((g) => g >= base);
  let records = 0;
  let journalBytes = 0;
  let dropped = 0;
  for (const [i, generation] of segments.entries()) {
    const path = join(dir, journalName(generation));
    const scan = await scanFrames(path, (payload) => {
      tables.apply(readChange(payload));
      records++;
    });
    const last = i === segments.length - 1;
    if (scan.validBytes !== scan.fileBytes && !last) {
      throw new Error(`journal ${path} is damaged at byte ${scan.validBytes} and later segments follow it; restore the data folder from a backup`);
    }
    journalBytes = scan.validBytes;
    dropped = scan.fileBytes - scan.validBytes;
  }
  // Leftovers of a compaction that renamed its snapshot in and was killed before removing what it replaced.
  for (const old of snapshots.filter((g) => g < base)) await unlink(join(dir, snapshotName(old)));
  for (const old of journals.filter((g) => g < base)) await unlink(join(dir, journalName(old)));
  return { generation: segments.at(-1) ?? base, snapshotBytes, journalBytes, records, dropped };
}
