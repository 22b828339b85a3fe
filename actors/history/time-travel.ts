/**
 * An actor as it was after a past turn, two ways: the snapshot the turn stored, or
 * the turns' events replayed through the pure machine from the actor's creation. The
 * two must agree (test/actors/history/time-travel.test.ts checks every actor of an
 * end-to-end run); a disagreement means a machine that is not a function of its
 * events, or a changed machine reading old events.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { decode, type Encoded } from '../codec.js';
import type { ActorKind } from '../runtime/actor-kind.js';
import { stepsOf } from '../runtime/machine-steps.js';
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
 * when the retention has purged the creation, it starts from the stored snapshot of
 * the oldest record kept.
 */
export function replay(kind: ActorKind, records: readonly TurnRecord[]): Replayed[] {
  const [first, ...rest] = records;
  if (!first) return [];
  const steps = stepsOf(kind.machine);
  let snapshot: AnyMachineSnapshot =
    first.stateBefore === null
      ? steps.initial(creationInput(kind, decode<EventObject>(first.event), first.actorId))[0]
      : restore(kind, { _id: first._id, snapshot: first.snapshot!, machineVersion: first.machineVersion });
  const out: Replayed[] = [{ version: first.version, snapshot: persistedSnapshot(kind, snapshot) }];
  for (const record of rest) {
    [snapshot] = steps.next(snapshot, decode<EventObject>(record.event));
    out.push({ version: record.version, snapshot: persistedSnapshot(kind, snapshot) });
  }
  return out;
}

/** Where a replay of `records` starts: 0 from the creation, else the version of the stored snapshot it starts from. */
export function replayStart(records: readonly TurnRecord[]): number {
  const first = records[0];
  return !first || first.stateBefore === null ? 0 : first.version;
}
