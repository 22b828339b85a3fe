/**
 * Reads a journal store's snapshot: every document of every collection as `put`
 * frames between a header frame and a trailer frame that counts them, so a snapshot
 * missing its end is told from a whole one.
 */
import { join } from 'node:path';
import { scanFrames } from './frames.js';
import { snapshotName } from './files.js';
import { readChange, type Change } from './records.js';

const FORMAT = 1;

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
