/**
 * The numbers of maker records. Document 3's record id is a number, so it cannot be
 * derived from the payee the way actor ids are; one sequence actor hands them out, one
 * per TAKE, and its conditional write is what keeps two numbers from ever being the same.
 * A number taken for a create that then loses to a concurrent create of the same payee
 * is never used: ids are unique and increasing, not gapless.
 */
import { assign, setup } from 'xstate';

export interface MakerSequenceContext {
  /** The last number handed out; 0 before the first. */
  issued: number;
}

export type MakerSequenceEvent = { type: 'OPEN' } | { type: 'TAKE' };

export const makerSequenceMachine = setup({
  types: { context: {} as MakerSequenceContext, events: {} as MakerSequenceEvent },
}).createMachine({
  id: 'maker-sequence',
  context: { issued: 0 },
  initial: 'COUNTING',
  states: {
    COUNTING: {
      on: { TAKE: { actions: assign(({ context }) => ({ issued: context.issued + 1 })) } },
    },
  },
});
