/**
 * The stored form of one actor: everything a turn changes, saved in one
 * conditional write (ARCHITECTURE, Actors §3).
 */
import type { Encoded } from '../codec.js';
import type { CollectionSpec, IndexSpec, StoredDocument } from '../store/store.js';
import type { TurnRecord } from './turn-record.js';

/** A delayed event waiting to be delivered; it fires only while its row exists. */
export interface TimerRow {
  id: string;
  event: Encoded;
  /** Absolute due time, milliseconds since the epoch. */
  dueAt: number;
  /** Failed deliveries so far; absent until the first failure. */
  attempts?: number;
  /** When a failed delivery is tried again (backoff), instead of `dueAt`. */
  retryAt?: number;
}

/** An effect to run after the write; `id` is stable across retries. */
export interface OutboxEntry {
  id: string;
  type: string;
  params: Encoded;
  /** Clock time of the turn that queued it. */
  at: number;
  /** Failed runs so far; absent until the first failure. */
  attempts?: number;
  /** Not run again before this time (backoff after a failure). */
  nextAttemptAt?: number;
  lastError?: string;
}

export interface ActorDocument<TView = Record<string, unknown>> extends StoredDocument {
  _id: string;
  kind: string;
  shard: number;
  version: number;
  machineVersion: number;
  snapshot: Encoded;
  /** The public resource as the API returns it, plus the fields list queries filter on. */
  view: TView;
  timers: TimerRow[];
  /** Earliest `dueAt` of `timers`, kept so due timers are found through an index. */
  nextTimerAt: number | null;
  outbox: OutboxEntry[];
  /** Whether `outbox` is non-empty. */
  outboxPending: boolean;
  /**
   * When the first pending effect may run (effects run in order, so the first one
   * decides), null with an empty outbox: the sweeper finds due work through an index.
   */
  outboxDueAt: number | null;
  /** Ids of the most recent messages applied, oldest first; older ones are in the message log. */
  recentMessageIds: string[];
  /**
   * The reply to each of `recentMessageIds`, same index, as codec JSON text: a string
   * per entry keeps the copy and encoding cost of a write flat however big replies are.
   */
  recentReplies: string[];
  /** When each of `recentMessageIds` was applied, same index. */
  recentAppliedAt: number[];
  /** Whether some applied ids have moved to the message log, so a miss here must look there. */
  messagesArchived: boolean;
  /**
   * The records of the latest turns, oldest first, until the history collection is known
   * to hold them (turn-record.ts); absent on documents written before history was kept.
   */
  history?: TurnRecord[];
  /**
   * The lease epoch of the shard under which this document was last written. A node
   * holding an older lease can no longer write it (see Fence).
   */
  epoch: number;
  /** The test clock this actor runs on (test-clock-time.ts); absent on the node's clock. Set at creation, never changed. */
  clockId?: string;
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
      // Not partial: the embedded store plans only with full indexes, and its lookup on the leading
      // `outboxPending` reads the few pending documents instead of scanning every actor each sweep.
      { key: { outboxPending: 1, shard: 1, outboxDueAt: 1 }, name: 'outbox_due' },
      ...viewIndexes,
    ],
  };
}

/** An outbox with the fields derived from it, which the sweeper's index reads: set together, so they cannot disagree. */
export function outboxFields(outbox: OutboxEntry[]): Pick<ActorDocument, 'outbox' | 'outboxPending' | 'outboxDueAt'> {
  return { outbox, outboxPending: outbox.length > 0, outboxDueAt: outboxDueAt(outbox) };
}

/** Earliest time an outbox's head may run, or null when it is empty. */
export function outboxDueAt(outbox: readonly OutboxEntry[]): number | null {
  const head = outbox[0];
  return head ? (head.nextAttemptAt ?? head.at) : null;
}

/** When a timer is next to be delivered, counting backoff after failures. */
export function firesAt(timer: TimerRow): number {
  return timer.retryAt ?? timer.dueAt;
}

/** Earliest time a timer is to be delivered, counting backoff after failures. */
export function nextTimerAt(timers: readonly TimerRow[]): number | null {
  return timers.length ? Math.min(...timers.map(firesAt)) : null;
}
