/**
 * Sets fields of the document `_id`, making it when it is not there: the upsert the
 * store interface leaves out (the embedded adapter has none), for small bookkeeping
 * documents whose last write wins. A concurrent first insert is taken as there.
 */
import { DuplicateKeyError } from '../errors.js';
import type { Collection, StoredDocument } from './store.js';

export async function setOrInsert<T extends StoredDocument>(collection: Collection<T>, _id: string, fields: Omit<T, '_id'>): Promise<void> {
  if (await collection.updateOne({ _id }, { $set: fields })) return;
  try {
    await collection.insertOne({ _id, ...fields } as T);
  } catch (error) {
    if (!(error instanceof DuplicateKeyError)) throw error;
    await collection.updateOne({ _id }, { $set: fields });
  }
}
