/**
 * One actor's turns as the inspector reads them: the rows of the history collection
 * and the records its document still holds (turns whose insert has not run yet, or
 * failed), merged by version, so a turn is readable from the moment its write lands,
 * and leaves with the retention either way. Reads only: it never wakes the actor.
 */
import type { ActorAddress } from '../address.js';
import type { Encoded } from '../codec.js';
import type { ActorDocument } from '../runtime/actor-document.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import { recordsOf, type TurnRecord } from '../runtime/turn-record.js';
import { replay, replayStart, storedAfter } from './time-travel.js';

/** Rows read per query while gathering the turns a replay or a walk back needs. */
const REPLAY_BATCH = 100;

export interface TurnPage {
  turns: TurnRecord[];
  hasMore: boolean;
}

export interface TravelledTo {
  record: TurnRecord;
  /** The persisted snapshot after the turn. */
  snapshot: Encoded;
  /** Replayed: 0 when from the creation, else the version of the stored snapshot the replay started from. Stored: null. */
  replayedFrom: number | null;
}

export class ActorHistory {
  constructor(private readonly system: ActorSystem) {}

  /** The actor's document, or null when it has none; UnknownKindError for a kind this node does not run. */
  document(address: ActorAddress): Promise<ActorDocument | null> {
    return this.system.documents(address.kind).findOne({ _id: address.id });
  }

  /** Up to `limit` turns after `afterVersion`, oldest first. */
  async page(doc: ActorDocument, afterVersion: number, limit: number): Promise<TurnPage> {
    const stored = await this.system.history.page(addressOf(doc), afterVersion, limit + 1);
    const turns = merged(
      stored,
      this.#held(doc).filter((record) => record.version > afterVersion),
    ).slice(0, limit + 1);
    return { turns: turns.slice(0, limit), hasMore: turns.length > limit };
  }

  /** The turn that wrote `version`, or null when there was none or the retention has purged it. */
  async turn(doc: ActorDocument, version: number): Promise<TurnRecord | null> {
    return this.#held(doc).find((record) => record.version === version) ?? (await this.system.history.turn(addressOf(doc), version));
  }

  /** The actor after the turn that wrote `version`: its stored snapshot, or by `replay` through the machine. */
  async travel(doc: ActorDocument, version: number, how: 'stored' | 'replay'): Promise<TravelledTo | null> {
    if (how === 'stored') {
      const since = await this.#kept(doc, version - 1, Infinity);
      const record = since[0];
      return record?.version === version ? { record, snapshot: storedAfter(doc.snapshot, since), replayedFrom: null } : null;
    }
    const records = await this.#kept(doc, 0, version);
    const record = records.at(-1);
    if (record?.version !== version) return null;
    const start = replayStart(records) === 0 ? undefined : storedAfter(doc.snapshot, await this.#kept(doc, records[0]!.version - 1, Infinity));
    const replayed = replay(this.system.kind(doc.kind), records, start);
    return { record, snapshot: replayed.at(-1)!.snapshot, replayedFrom: replayStart(records) };
  }

  /** The records the document holds, as far as the retention keeps them. */
  #held(doc: ActorDocument): TurnRecord[] {
    const since = this.system.clock.now() - this.system.history.retentionMs;
    return recordsOf(doc).filter((record) => record.at >= since);
  }

  /** Every kept turn after `afterVersion` up to `upTo`, oldest first. */
  async #kept(doc: ActorDocument, afterVersion: number, upTo: number): Promise<TurnRecord[]> {
    const stored: TurnRecord[] = [];
    for (let after = afterVersion; ; ) {
      const batch = await this.system.history.page(addressOf(doc), after, REPLAY_BATCH);
      stored.push(...batch.filter((record) => record.version <= upTo));
      if (batch.length < REPLAY_BATCH || batch.at(-1)!.version >= upTo) break;
      after = batch.at(-1)!.version;
    }
    return merged(
      stored,
      this.#held(doc).filter((record) => record.version > afterVersion && record.version <= upTo),
    );
  }
}

function addressOf(doc: ActorDocument): ActorAddress {
  return { kind: doc.kind, id: doc._id };
}

/** Both sources by version, oldest first; a turn in both is the same record. */
function merged(stored: readonly TurnRecord[], held: readonly TurnRecord[]): TurnRecord[] {
  const byVersion = new Map<number, TurnRecord>();
  for (const record of [...stored, ...held]) byVersion.set(record.version, record);
  return [...byVersion.values()].sort((a, b) => a.version - b.version);
}
