/**
 * The stored form of one actor: everything a turn changes, saved in one
 * conditional write (ARCHITECTURE, Actors §3).
 */
import type { Encoded } from '../codec.js';
import type { CollectionSpec, IndexSpec, StoredDocument } from '../store/store.js';

/** A delayed event waiting to be delivered; it fires only while its row exists. */
export interface TimerRow {
  id: string;
  event: Encoded;
  /** Absolute due time, milliseconds since the epoch. */
  dueAt: number;
}

/** An effect to run after the write; `id` is stable across retries. */
export interface OutboxEntry {
  id: string;
  type: string;
  params: Encoded;
  /** Clock time of the turn that queued it. */
  at: number;
}

export interface ActorDocument extends StoredDocument {
  _id: string;
  kind: string;
  shard: number;
  version: number;
  machineVersion: number;
  snapshot: Encoded;
  /** The public resource as the API returns it, plus the fields list queries filter on. */
  view: Record<string, unknown>;
  timers: TimerRow[];
  /** Earliest `dueAt` of `timers`, kept so due timers are found through an index. */
  nextTimerAt: number | null;
  outbox: OutboxEntry[];
  /** Whether `outbox` is non-empty, kept so recovery finds pending effects through an index. */
  outboxPending: boolean;
  /** Ids of the most recent messages applied, oldest first. */
  recentMessageIds: string[];
  /**
   * The reply to each of `recentMessageIds`, same index, as codec JSON text: a string
   * per entry keeps the copy and encoding cost of a write flat however big replies are.
   */
  recentReplies: string[];
  createdAt: number;
  updatedAt: number;
}

export function actorCollectionName(kind: string): string {
  return `actors_${kind}`;
}

export function actorCollectionSpec(kind: string, viewIndexes: IndexSpec[] = []): CollectionSpec {
  return {
    name: actorCollectionName(kind),
    indexes: [
      { key: { shard: 1, nextTimerAt: 1 }, name: 'timers_by_shard' },
      { key: { shard: 1, outboxPending: 1 }, name: 'outbox_by_shard', partialFilterExpression: { outboxPending: true } },
      ...viewIndexes,
    ],
  };
}
