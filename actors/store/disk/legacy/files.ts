/**
 * The names in a journal store's data folder. Generation N's snapshot is the state at the start of
 * journal segment N; recovery takes the newest snapshot and replays the segments from
 * its generation on. Zero-padded numbers sort as text.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const SNAPSHOT = /^snapshot-(\d{12})\.snap$/;
const JOURNAL = /^journal-(\d{12})\.log$/;

export const snapshotName = (generation: number) => `snapshot-${pad(generation)}.snap`;
export const journalName = (generation: number) => `journal-${pad(generation)}.log`;

function pad(generation: number): string {
  return String(generation).padStart(12, '0');
}

export interface FolderContents {
  snapshots: number[];
  journals: number[];
  temporary: string[];
}

export async function listFolder(dir: string): Promise<FolderContents> {
  const contents: FolderContents = { snapshots: [], journals: [], temporary: [] };
  for (const name of await readdir(dir)) {
    const snapshot = SNAPSHOT.exec(name);
    const journal = JOURNAL.exec(name);
    if (snapshot) contents.snapshots.push(Number(snapshot[1]));
    else if (journal) contents.journals.push(Number(journal[1]));
    else if (name.endsWith('.tmp') && name.startsWith('snapshot-')) contents.temporary.push(join(dir, name));
  }
  contents.snapshots.sort((a, b) => a - b);
  contents.journals.sort((a, b) => a - b);
  return contents;
}
