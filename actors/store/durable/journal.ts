/**
 * The append-only journal, with group commit: frames appended while a write and
 * fdatasync are in flight wait together for the next one, so a burst of N writes
 * costs a few fsyncs rather than N. Batches go to disk strictly in order, so a
 * batch being durable means every earlier one is too.
 *
 * After an I/O error the journal is failed for good: that batch, every later one and
 * every later append reject. Memory may then hold changes the disk does not, so the
 * store must refuse to go on rather than serve them (see `failure`).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { syncDirectory } from './files.js';

interface Batch {
  frames: Buffer[];
  bytes: number;
  /** The segment to continue in once this batch is durable (compaction starts a new one). */
  rotateTo: string | null;
  done: Promise<void>;
  resolve(): void;
  reject(error: Error): void;
}

export class Journal {
  #handle: FileHandle;
  #path: string;
  #bytes: number;
  #open: Batch = newBatch();
  /** The batch being written, if any. */
  #flushing: Batch | null = null;
  #scheduled = false;
  #failure: Error | null = null;

  private constructor(handle: FileHandle, path: string, bytes: number) {
    this.#handle = handle;
    this.#path = path;
    this.#bytes = bytes;
  }

  /** Opens `path` for appending (creating it durably), cut to its first `validBytes`. */
  static async open(path: string, validBytes: number): Promise<Journal> {
    const handle = await open(path, 'a');
    try {
      if ((await handle.stat()).size !== validBytes) {
        await handle.truncate(validBytes);
        await handle.datasync();
      }
      await syncDirectory(path);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return new Journal(handle, path, validBytes);
  }

  get path(): string {
    return this.#path;
  }

  /** Bytes in the current segment, counting those queued. */
  get bytes(): number {
    return this.#bytes;
  }

  get failure(): Error | null {
    return this.#failure;
  }

  /** Queues `frame` at once (so journal order is call order) and resolves when it is durable. */
  append(frame: Buffer): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    this.#open.frames.push(frame);
    this.#open.bytes += frame.length;
    this.#bytes += frame.length;
    this.#schedule();
    return this.#open.done;
  }

  /** Resolves when everything appended so far is durable; null when it already is. */
  settled(): Promise<void> | null {
    if (this.#failure) return Promise.reject(this.#failure);
    if (this.#open.frames.length > 0) return this.#open.done;
    return this.#queue.at(-1)?.done ?? this.#flushing?.done ?? null;
  }

  /** Frames appended from now on go to a new segment at `path`; resolves once it is in place. */
  rotate(path: string): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    const batch = this.#open;
    batch.rotateTo = path;
    this.#open = newBatch();
    this.#queue.push(batch);
    this.#bytes = 0;
    this.#schedule();
    return batch.done;
  }

  /** Waits for what is queued, then closes the file. */
  async close(): Promise<void> {
    await this.settled()?.catch(() => undefined);
    await this.#handle.close();
  }

  /** Batches sealed by a rotation, ahead of the open one. */
  #queue: Batch[] = [];

  /**
   * An idle journal waits for the rest of the current event-loop turn before it
   * writes, so the writes of turns running side by side share the first fsync too.
   */
  #schedule(): void {
    if (this.#flushing || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    while (!this.#failure) {
      let batch = this.#queue.shift();
      if (!batch) {
        if (this.#open.frames.length === 0) return;
        batch = this.#open;
        this.#open = newBatch();
      }
      this.#flushing = batch;
      try {
        await this.#write(batch);
        this.#flushing = null;
        batch.resolve();
      } catch (error) {
        this.#flushing = null;
        this.#fail(error instanceof Error ? error : new Error(String(error)), batch);
      }
    }
  }

  async #write(batch: Batch): Promise<void> {
    if (batch.frames.length > 0) {
      const data = batch.frames.length === 1 ? batch.frames[0]! : Buffer.concat(batch.frames, batch.bytes);
      let written = 0;
      while (written < data.length) written += (await this.#handle.write(data, written, data.length - written)).bytesWritten;
      await this.#handle.datasync();
    }
    if (batch.rotateTo) {
      const next = await open(batch.rotateTo, 'a');
      await syncDirectory(batch.rotateTo);
      await this.#handle.close();
      this.#handle = next;
      this.#path = batch.rotateTo;
    }
  }

  #fail(error: Error, batch: Batch): void {
    this.#failure = new Error(`the durable store's journal ${this.#path} failed; the store refuses further calls: ${error.message}`, { cause: error });
    for (const failed of [batch, ...this.#queue, this.#open]) failed.reject(this.#failure);
    this.#queue = [];
  }
}

function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const done = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A batch nobody waits on (a rotation's, say) must not crash the process as unhandled.
  done.catch(() => undefined);
  return { frames: [], bytes: 0, rotateTo: null, done, resolve, reject };
}
