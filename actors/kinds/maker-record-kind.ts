/**
 * The `maker-record` actor kind (one per payee and processor, its id derived from both by
 * makerActorId) and the `maker-record-sequence` kind that numbers the records. A maker's view
 * is its record as stored, plus what reads look it up by; its one effect registers the
 * payee in the payee directory, at least once (registering twice changes nothing).
 */
import type { AnyMachineSnapshot } from 'xstate';
import { makerMachine, makerSequenceMachine, type MakerContext, type MakerInput, type MakerSequenceContext } from '../../machines/maker/index.js';
import type { PayeeDirectory } from '../market/payee-directory.js';
import { defineKind, withEffects, type ActorKind } from '../runtime/actor-kind.js';

/** The one sequence actor's id. */
export const MAKER_SEQUENCE_ID = 'maker-records';
export const MAKER_RECORD_KIND = 'maker-record';
export const MAKER_SEQUENCE_KIND = 'maker-record-sequence';

/** The maker record kind as callers address it; every node registers it with its effect, through `makerRecordKinds`. */
export const makerRecordKind = defineKind({
  name: MAKER_RECORD_KIND,
  machine: makerMachine,
  machineVersion: 1,
  createdBy: ['CREATE'],
  input: ({ record, paymentMethods }: { type: 'CREATE' } & MakerInput): MakerInput => ({ record, paymentMethods }),
  view: (snapshot: AnyMachineSnapshot) => {
    const { record, paymentMethods } = snapshot.context as MakerContext;
    return { record, paymentMethods, id: record.id };
  },
  reply: (snapshot: AnyMachineSnapshot) => (snapshot.context as MakerContext).record,
  // A second record with one number would be a fault of the sequence; the store refuses it rather than serve it.
  viewIndexes: [{ key: { 'view.id': 1 }, unique: true, name: 'maker_by_number' }],
});

export const makerSequenceKind = defineKind({
  name: MAKER_SEQUENCE_KIND,
  machine: makerSequenceMachine,
  machineVersion: 1,
  createdBy: ['OPEN'],
  view: (snapshot: AnyMachineSnapshot) => ({ issued: (snapshot.context as MakerSequenceContext).issued }),
  reply: (snapshot: AnyMachineSnapshot) => (snapshot.context as MakerSequenceContext).issued,
});

/** Both kinds, registered together on every node: any node may serve a maker's shard. */
export function makerRecordKinds(directory: PayeeDirectory): ActorKind[] {
  const registered = withEffects(makerRecordKind, {
    registerPayee: async ({ paymentMethods, payeeId, at }) => {
      for (const method of paymentMethods) await directory.register(method, payeeId, at);
    },
  });
  return [registered, makerSequenceKind];
}
