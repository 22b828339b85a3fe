/**
 * Fixed windows counted in the cluster's store, one document per budget and key:
 * `{ _id: "<budget>:<key>", points, expiresAt }`. A window opens with the key's first
 * request, as the in-memory limiter's does, and lasts its duration from there.
 *
 * Why this is exact whatever the number of nodes, over the Store interface as it is
 * (no findOneAndUpdate, no upsert, so MongoStore and the stand-in alike serve it):
 * a request takes its point with ONE conditional write,
 * `updateOne({ _id, expiresAt > now, points <= limit - n }, { $inc: { points: n } })`.
 * Every adapter applies a single-document update atomically (filter and change
 * together), so of any number of concurrent takers across any number of nodes at most
 * `limit` ever match in one window: the count never passes the limit, and a refused
 * request writes nothing. A request that finds no live window opens one by insertOne
 * (the unique `_id` lets one of several racing openers win; the others go round again)
 * or by replaceOne of the expired one conditional on its `expiresAt` (the window's
 * identity: a later window always ends later). Only then is the document read back,
 * for the headers: its count is this request's and maybe a few later ones', so
 * `remaining` may read low under concurrency, never high.
 *
 * Cost: an allowed request in an open window is two round trips (the write, the read
 * back); a refused one two (the missed write, the read that says why); the first of a
 * window three. Clock skew between nodes moves a window's end by the skew, no more.
 *
 * Expired windows are replaced in place when their key comes back; those of keys that
 * never return are swept by `sweep` (deleteMany on the `expiresAt` index), which the
 * budgets run at most once a minute. MongoDB could do it with a TTL index, but the
 * Store's index specs do not carry one, and a sweep works on every adapter.
 */
import type { Collection, Store } from '../../actors/store/store.js';
import { DuplicateKeyError } from '../../actors/errors.js';

export const WINDOWS_COLLECTION = 'rate_limit_windows';

interface WindowDoc {
  _id: string;
  points: number;
  /** Epoch milliseconds at which the window closes. */
  expiresAt: number;
  [field: string]: unknown;
}

export interface WindowCount {
  allowed: boolean;
  /** Points counted in the window, this request's included when allowed (a lower bound of nobody's; headers only). */
  consumed: number;
  expiresAt: number;
}

/** Rounds that find the window changed under them (opened, replaced) go again; past this many something is wrong. */
const MAX_ROUNDS = 8;

export class StoreWindows {
  #collection: Collection<WindowDoc> | null = null;

  constructor(private readonly store: Store) {}

  /** Takes `points` from the window of `id` if it has that many left, opening a window of `durationMs` if none is live. */
  async take(id: string, limit: number, points: number, durationMs: number, now: number): Promise<WindowCount> {
    const windows = await this.#windows();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (await windows.updateOne({ _id: id, expiresAt: { $gt: now }, points: { $lte: limit - points } }, { $inc: { points } })) {
        const after = await windows.findOne({ _id: id });
        return after ? { allowed: true, consumed: after.points, expiresAt: after.expiresAt } : { allowed: true, consumed: points, expiresAt: now + durationMs };
      }
      const current = await windows.findOne({ _id: id });
      const fresh: WindowDoc = { _id: id, points, expiresAt: now + durationMs };
      if (current === null) {
        if (points > limit) return { allowed: false, consumed: points, expiresAt: fresh.expiresAt };
        if (await insertedFirst(windows, fresh)) return { allowed: true, consumed: points, expiresAt: fresh.expiresAt };
      } else if (current.expiresAt <= now) {
        if (points > limit) return { allowed: false, consumed: points, expiresAt: fresh.expiresAt };
        if (await windows.replaceOne({ _id: id, expiresAt: current.expiresAt }, fresh)) return { allowed: true, consumed: points, expiresAt: fresh.expiresAt };
      } else if (current.points > limit - points) {
        return { allowed: false, consumed: current.points + points, expiresAt: current.expiresAt };
      }
      // Opened, replaced or given room by another request between the two calls: go again.
    }
    throw new Error(`the window of ${id} kept changing under ${MAX_ROUNDS} rounds`);
  }

  /** Deletes windows closed before `before`; returns how many. */
  async sweep(before: number): Promise<number> {
    return (await this.#windows()).deleteMany({ expiresAt: { $lt: before } });
  }

  /** Only a declared collection is kept: a declaration that failed or hangs (the store is down) is not waited on again. */
  async #windows(): Promise<Collection<WindowDoc>> {
    this.#collection ??= await this.store.collection<WindowDoc>({
      name: WINDOWS_COLLECTION,
      indexes: [{ key: { expiresAt: 1 }, name: 'rate_limit_windows_by_expiry' }],
    });
    return this.#collection;
  }
}

async function insertedFirst(windows: Collection<WindowDoc>, doc: WindowDoc): Promise<boolean> {
  try {
    await windows.insertOne(doc);
    return true;
  } catch (error) {
    if (error instanceof DuplicateKeyError) return false;
    throw error;
  }
}
