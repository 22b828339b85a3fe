/**
 * The history collection: one append-only row per turn (turn-record.ts), inserted by
 * the history writer (history-writer.ts) after the turn's write. An insert that meets its own `_id` is a
 * record already written (a drain run again after a crash), not a failure. Rows past
 * the retention are purged by the sweeper, through the index on their time.
 */
import type { ActorAddress } from '../address.js';
import { DuplicateKeyError } from '../errors.js';
import type { Collection, Store } from '../store/store.js';
import { turnRecordId, type TurnRecord } from './turn-record.js';

export const HISTORY_COLLECTION = 'actor_history';

export class TurnHistory {
  private constructor(
    private readonly rows: Collection<TurnRecord>,
    readonly retentionMs: number,
  ) {}

  static async open(store: Store, retentionMs: number): Promise<TurnHistory> {
    const rows = await store.collection<TurnRecord>({
      name: HISTORY_COLLECTION,
      indexes: [
        { key: { kind: 1, actorId: 1, version: 1 }, name: 'by_actor' },
        { key: { at: 1 }, name: 'by_time' },
      ],
    });
    return new TurnHistory(rows, retentionMs);
  }

  /** Idempotent by the record's `_id`. The record is a value its turn built and nothing changes. */
  async insert(record: TurnRecord): Promise<void> {
    try {
      await this.rows.insertOne(record, { handOff: true });
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
    }
  }

  /** Up to `limit` turns of the actor after `afterVersion`, oldest first. */
  page(actor: ActorAddress, afterVersion: number, limit: number): Promise<TurnRecord[]> {
    return this.rows.find({ kind: actor.kind, actorId: actor.id, version: { $gt: afterVersion } }, { sort: { version: 1 }, limit });
  }

  /** The turn that wrote `version` of the actor, if it is kept. */
  turn(actor: ActorAddress, version: number): Promise<TurnRecord | null> {
    return this.rows.findOne({ _id: turnRecordId(actor, version) });
  }

  /** The actor's newest turn kept, if any. */
  async last(actor: ActorAddress): Promise<TurnRecord | null> {
    const [newest] = await this.rows.find({ kind: actor.kind, actorId: actor.id }, { sort: { version: -1 }, limit: 1 });
    return newest ?? null;
  }

  /** The latest `limit` turns of any actor, newest first, through the index by time: the inspector's watchlist. */
  latest(limit: number): Promise<TurnRecord[]> {
    return this.rows.find({}, { sort: { at: -1 }, limit });
  }

  /** Deletes the rows older than the retention; returns how many. */
  purge(now: number): Promise<number> {
    return this.rows.deleteMany({ at: { $lt: now - this.retentionMs } });
  }
}
