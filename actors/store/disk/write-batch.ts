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
}

export class WriteBatch {
  readonly #root: RootDatabase;
  #open: OpenBatch | null = null;

  constructor(root: RootDatabase) {
    this.#root = root;
  }

  /** Runs `change` in the open transaction, opening one if none is; `change` changes pages only (its checks are done). */
  run(change: () => void): void {
    const batch = (this.#open ??= this.#begin());
    try {
      change();
    } catch (error) {
      batch.failure ??= error instanceof Error ? error : new Error(String(error));
      throw error;
    }
  }

  /** Commits the open transaction (nothing when none is open); rejects, having aborted it, when one of its writes failed. */
  async commit(): Promise<void> {
    const batch = this.#open;
    if (!batch) return;
    this.#open = null;
    batch.release(batch.failure ? ABORT : true);
    await batch.committed;
    if (batch.failure) throw batch.failure;
  }

  #begin(): OpenBatch {
    let release!: (result?: unknown) => void;
    const held = new Promise<unknown>((resolve) => {
      release = resolve;
    });
    const committed = this.#root.transactionSync(() => held, COMMIT_WITHOUT_FLUSH) as unknown as Promise<unknown>;
    return { release, committed, failure: null };
  }
}
