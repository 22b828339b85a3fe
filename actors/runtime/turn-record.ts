/**
 * The record of one turn (ARCHITECTURE, Actors §10): what the actor was told, the state
 * before and after, what the turn queued, and what it changed in the persisted snapshot
 * (a patch back to the snapshot it found, snapshot-patch.ts), not a copy of the snapshot:
 * the snapshot after any kept turn is the document's own walked back through the
 * patches of the turns since (actors/history/time-travel.ts).
 *
 * A turn puts its record in its own document (`history`), so the one conditional write
 * that saves the turn saves the record too, and a write that loses its condition (a
 * newer version, a newer lease) leaves none. After the write the node inserts it into
 * the history collection under `_id = <kind>:<id>:<version>` (history-writer.ts), where
 * a second insert is a duplicate key rather than a second row. A record leaves the
 * document only with a write made after its insert succeeded: every record is in the
 * document, the collection or both, never in neither, and no write is added for it.
 */
import type { ActorAddress } from '../address.js';
import type { Encoded } from '../codec.js';
import type { StoredDocument } from '../store/store.js';
import type { SnapshotPatch } from './snapshot-patch.js';

/** What a turn queued, compactly: ids and types, never the payloads (the snapshot says what changed). */
export interface TurnEffects {
  /** Effects queued for after the write, in order; an emitted event names its type, a tell its target and event type. */
  outbox: Array<{ id: string; type: string; event?: string; to?: string }>;
  timersSet: Array<{ id: string; dueAt: number; event: string }>;
  timersCancelled: string[];
}

export interface TurnRecord extends StoredDocument {
  /** `<kind>:<id>:<version>`: one row per landed write, whoever inserts it and however often. */
  _id: string;
  kind: string;
  actorId: string;
  /** The document version the turn wrote (maintenance writes take versions too, so versions may skip). */
  version: number;
  machineVersion: number;
  /** Clock time of the turn. */
  at: number;
  messageId: string;
  /** The event the machine took, as the codec encodes it; for a timer, the delayed event it delivered. */
  event: Encoded;
  /** The timer that delivered `event`; null for a message. */
  timer: string | null;
  /** State value before the turn; null for the turn that created the actor. */
  stateBefore: Encoded | null;
  stateAfter: Encoded;
  effects: TurnEffects;
  /**
   * The patch from the persisted snapshot this turn left back to the one it found; null
   * for the turn that created the actor (it found none) or one that changed nothing.
   * Absent on records written before patches were kept, which hold `snapshot` instead.
   */
  undo?: SnapshotPatch | null;
  /**
   * Only on records written before patches were kept: the persisted snapshot after the
   * turn, null on a document's newest such record (the document's own snapshot is that one).
   */
  snapshot?: Encoded | null;
}

export function turnRecordId(address: ActorAddress, version: number): string {
  return `${address.kind}:${address.id}:${version}`;
}

/** What a turn knows of itself: the record's own fields, and the parts the record keeps in another form. */
type TurnFacts = Pick<TurnRecord, 'version' | 'machineVersion' | 'at' | 'messageId' | 'event' | 'timer'> & {
  address: ActorAddress;
  stateBefore: unknown;
  stateAfter: unknown;
  queued: TurnEffects['outbox'];
  /** What the record keeps of each timer row set (actor-document.ts's TimerRow). */
  timersSet: readonly { id: string; dueAt: number; event: Encoded }[];
  timersCancelled: readonly string[];
  undo: SnapshotPatch | null;
};

/** The record a turn adds to its document. */
export function turnRecord(facts: TurnFacts): TurnRecord {
  const { version, machineVersion, at, messageId, event, timer } = facts;
  return {
    _id: turnRecordId(facts.address, version),
    kind: facts.address.kind,
    actorId: facts.address.id,
    version,
    machineVersion,
    at,
    messageId,
    event,
    timer,
    // State values are plain strings and objects of strings.
    stateBefore: facts.stateBefore === null ? null : (facts.stateBefore as Encoded),
    stateAfter: facts.stateAfter as Encoded,
    effects: {
      outbox: facts.queued,
      timersSet: facts.timersSet.map((timer) => ({ id: timer.id, dueAt: timer.dueAt, event: eventType(timer.event) })),
      timersCancelled: [...facts.timersCancelled],
    },
    undo: facts.undo,
  };
}

/**
 * The records `doc` holds, as the history collection is to hold them. A document written
 * before patches were kept may hold records with snapshots, its newest one with null for
 * the document's own: that one gets the document's snapshot, which is still its own while
 * it is the newest (a turn moving the document on folds it in before it writes).
 */
export function recordsOf(doc: { history?: TurnRecord[]; snapshot: Encoded }): TurnRecord[] {
  return (doc.history ?? []).map((record) => (record.snapshot === null ? { ...record, snapshot: doc.snapshot } : record));
}

/** The type of an encoded event. */
export function eventType(event: Encoded): string {
  return event !== null && typeof event === 'object' && !Array.isArray(event) ? String(event.type) : String(event);
}
