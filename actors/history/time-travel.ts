/**
 * An actor as it was after a past turn, two ways: the snapshot the turn stored (the
 * document's walked back through the patches of the turns since), or the turns'
 * events replayed through the pure machine from the actor's creation. The
 * two must agree (test/actors/history/time-travel.test.ts checks every actor of an
 * end-to-end run); a disagreement means a machine that is not a function of its
 * events, or a changed machine reading old events.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { decode, type Encoded } from '../codec.js';
import type { ActorKind } from '../runtime/actor-kind.js';
import { stepsOf } from '../runtime/machine-steps.js';
import { applyPatch } from '../runtime/snapshot-patch.js';
import type { TurnRecord } from '../runtime/turn-record.js';
import { creationInput, persistedSnapshot, restore } from '../runtime/turn.js';

export interface Replayed {
  version: number;
  /** The persisted snapshot the replay reached, in the form the turn stored its own. */
  snapshot: Encoded;
}

/**
 * The snapshot after each of `records` (one actor's turns, oldest first, without gaps
 * between turns), by replay. It starts at the creation when `records` begins with it;
 * when the retention has purged the creation, it starts from `start`, the stored
 * snapshot after the oldest record kept (storedAfter).
 */
export function replay(kind: ActorKind, records: readonly TurnRecord[], start?: Encoded): Replayed[] {
  const [first, ...rest] = records;
  if (!first) return [];
  const steps = stepsOf(kind.machine);
  if (first.stateBefore !== null && start === undefined) throw new Error(`${first._id}: a replay after the creation needs the snapshot it starts from`);
  let snapshot: AnyMachineSnapshot =
    first.stateBefore === null
      ? steps.initial(creationInput(kind, decode<EventObject>(first.event), first.actorId))[0]
      : restore(kind, { _id: first._id, snapshot: start!, machineVersion: first.machineVersion });
  const out: Replayed[] = [{ version: first.version, snapshot: persistedSnapshot(kind, snapshot) }];
  for (const record of rest) {
    [snapshot] = steps.next(snapshot, decode<EventObject>(record.event));
    out.push({ version: record.version, snapshot: persistedSnapshot(kind, snapshot) });
  }
  return out;
}

/**
 * The persisted snapshot stored after `records[0]`, from `current` (the document's
 * snapshot: the one its newest turn left, as only turns change it) and every kept turn
 * since, oldest first and without gaps: each turn's patch leads back to the snapshot
 * the turn found, which the turn before left. A record written before patches were kept
 * holds its snapshot instead, and the walk takes that one.
 */
export function storedAfter(current: Encoded, records: readonly TurnRecord[]): Encoded {
  let after: Encoded | undefined = current;
  for (let index = records.length - 1; index > 0; index--) {
    const record = records[index]!;
    if (record.snapshot != null) after = record.snapshot;
    if (record.undo === undefined) after = undefined;
    else if (after !== undefined && record.undo !== null) after = applyPatch(after, record.undo);
  }
  const first = records[0];
  if (first?.snapshot != null) return first.snapshot;
  if (after === undefined || !first) throw new Error(`${first?._id ?? 'no record'}: no stored snapshot or patch leads to it`);
  return after;
}

/** Where a replay of `records` starts: 0 from the creation, else the version of the stored snapshot it starts from. */
export function replayStart(records: readonly TurnRecord[]): number {
  const first = records[0];
  return !first || first.stateBefore === null ? 0 : first.version;
}
