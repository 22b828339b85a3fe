/**
 * A snapshot: every document of every collection as `put` frames, between a header
 * frame and a trailer frame that counts them, so a snapshot missing its end is told
 * from a whole one. It is written to a temporary name, synced, renamed in and its
 * folder synced: until the rename, the previous snapshot and journal stay the truth.
 */
import { open, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredDocument } from '../store.js';
import { frame, scanFrames } from './frames.js';
import { snapshotName, syncDirectory, temporaryName } from './files.js';
import { putFrame, readChange, type Change } from './records.js';

export type Tables = Array<[collection: string, docs: StoredDocument[]]>;

/** Bytes per write; also how often the event loop gets a turn while a snapshot is encoded. */
const CHUNK_BYTES = 4 * 1024 * 1024;
const FORMAT = 1;

/**
 * Writes `tables` as generation `generation`'s snapshot and returns its size. The
 * documents are the store's own objects, which it never changes in place, so they can
 * be encoded a chunk at a time while the store goes on. `aborted` is checked between
 * chunks (the store is closing); an aborted snapshot leaves only a temporary file.
 */
export async function writeSnapshot(dir: string, generation: number, tables: Tables, aborted: () => boolean): Promise<number | null> {
  const temporary = join(dir, temporaryName(generation));
  const handle = await open(temporary, 'w');
  let size = 0;
  try {
    let chunk: Buffer[] = [frame(JSON.stringify({ snapshot: generation, format: FORMAT }))];
    let chunkBytes = chunk[0]!.length;
    let count = 0;
    const flush = async () => {
      const data = Buffer.concat(chunk, chunkBytes);
      let written = 0;
      while (written < data.length) written += (await handle.write(data, written, data.length - written)).bytesWritten;
      size += data.length;
      chunk = [];
      chunkBytes = 0;
    };
    for (const [collection, docs] of tables) {
      for (const doc of docs) {
        const record = putFrame(collection, doc);
        chunk.push(record);
        chunkBytes += record.length;
        count++;
        if (chunkBytes >= CHUNK_BYTES) {
          await flush();
          if (aborted()) return null;
        }
      }
    }
    const trailer = frame(JSON.stringify({ end: count }));
    chunk.push(trailer);
    chunkBytes += trailer.length;
    await flush();
    await handle.datasync();
  } finally {
    await handle.close();
  }
  const path = join(dir, snapshotName(generation));
  await rename(temporary, path);
  await syncDirectory(path);
  return size;
}

/** Calls `onChange` with every document of generation `generation`'s snapshot; throws when the snapshot is not whole. */
export async function readSnapshot(dir: string, generation: number, onChange: (change: Change) => void): Promise<number> {
  const path = join(dir, snapshotName(generation));
  let header: { snapshot?: number; format?: number } | null = null;
  let trailer: { end?: number } | null = null;
  let count = 0;
  const scan = await scanFrames(path, (payload) => {
    if (!header) {
      header = JSON.parse(payload) as { snapshot?: number; format?: number };
      return;
    }
    if (trailer) throw new Error(`snapshot ${path} has data after its end`);
    if (payload.startsWith('{"end":')) {
      trailer = JSON.parse(payload) as { end?: number };
      return;
    }
    onChange(readChange(payload));
    count++;
  });
  const read = header as { snapshot?: number; format?: number } | null;
  const end = trailer as { end?: number } | null;
  if (read?.snapshot !== generation || read.format !== FORMAT || end?.end !== count || scan.validBytes !== scan.fileBytes) {
    throw new Error(`snapshot ${path} is damaged (it was renamed in whole, so the disk changed it); restore the data folder from a backup`);
  }
  return scan.fileBytes;
}
