/**
 * The writes of one batch share one LMDB write transaction: the first write opens it
 * and it stays open until the flush group commits it, just before the sync that makes
 * the batch durable. Reads made meanwhile go through the open transaction, so every
 * call sees every earlier write at once. One commit per batch instead of one per write
 * halves what a write costs the main thread (a transaction's commit writes every page
 * it dirtied; a create dirties some seventy, one per index row).
 *
 * A write does all of its checks before its first change (unique keys, the replace's
 * condition, the encoding), so a refusal leaves nothing in the batch. A failure after a write has begun changing pages (the map full, an I/O error)
 * aborts the whole batch: none of its writes had been acknowledged, and all of them fail.
 */
import { ABORT, type RootDatabase } from 'lmdb';

/** Commit without waiting for the disk (a sync follows before anything is acknowledged), abortable. */
export const COMMIT_WITHOUT_FLUSH = 0x10000 | 2 | 1;

interface OpenBatch {
  release(result?: unknown): void;
  committed: Promise<unknown>;
  failure: Error | null;
  /** The documents its writes touched, as `collection NUL _id`. */
  touched: Set<string>;
}

/** No document is waiting on a sync. */
const NONE: ReadonlySet<string> = new Set();

export class WriteBatch {
  readonly #root: RootDatabase;
  #open: OpenBatch | null = null;
  /** The documents of the batch whose sync is running. */
  #syncing: ReadonlySet<string> = NONE;

  constructor(root: RootDatabase) {
    this.#root = root;
  }

  /**
   * Runs `change` in the open transaction, opening one if none is; `change` changes pages
   * only (its checks are done). `touched` names the documents it writes.
   */
  run(change: () => void, touched: readonly string[]): void {
    const batch = (this.#open ??= this.#begin());
    for (const key of touched) batch.touched.add(key);
    try {
      change();
    } catch (error) {
      batch.failure ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  /** Whether a write to the document is in a batch not yet synced: only then must a lookup of it wait. */
  unsynced(key: string): boolean {
    return this.#syncing.has(key) || (this.#open?.touched.has(key) ?? false);
  }

  /**
   * Commits the open transaction, runs `sync`, and only then forgets which documents it
   * touched. Rejects, having aborted the transaction, when one of its writes failed.
   */
  async commitAndSync(sync: () => Promise<void>): Promise<void> {
    const batch = this.#open;
    if (batch) {
      this.#syncing = batch.touched;
      batch.release(batch.failure ? ABORT : true);
      // The commit runs a microtask later; until it has, the transaction is still open, and a write
      // arriving meanwhile joins it (this sync covers it) rather than opening a second one inside it.
      try {
        await batch.committed;
      } finally {
        if (this.#open === batch) this.#open = null;
      }
      if (batch.failure) throw batch.failure;
    }
    try {
      await sync();
    } finally {
      this.#syncing = NONE;
    }
  }

  #begin(): OpenBatch {
    let release!: (result?: unknown) => void;
    const held = new Promise<unknown>((resolve) => {
      release = resolve;
    });
    const committed = this.#root.transactionSync(() => held, COMMIT_WITHOUT_FLUSH) as unknown as Promise<unknown>;
    return { release, committed, failure: null, touched: new Set() };
  }
}
