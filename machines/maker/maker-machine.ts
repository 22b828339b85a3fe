/**
 * A maker: one payee on one processor, as registered through document 3's maker
 * endpoints. Its record does not change once made (document 3 shows no maker
 * transitions); it is an actor so that the record and the payee directory entries it
 * owes are saved by one conditional write, and two creates of one payee meet in one
 * actor. Entering the record queues `registerPayee`, which tells the payee directory
 * whom the payee's hash names on each payment method, so checkout can quote deposits
 * paid to it.
 */
import { setup } from 'xstate';
import type { StoredMakerRecord } from './maker-record.js';

export type MakerInput = {
  record: StoredMakerRecord;
  /** The deposit payment methods the payee is registered under (one, or each Zelle bank). */
  paymentMethods: string[];
};

export type MakerContext = MakerInput;

export type MakerEvent = { type: 'CREATE' } & MakerInput;

/** The effect that registers the payee in the payee directory; handled in actors/kinds/maker-record-kind.ts. */
export interface RegisterPayeeParams {
  paymentMethods: string[];
  payeeId: string;
  at: string;
}

export const makerMachine = setup({
  types: { context: {} as MakerContext, events: {} as MakerEvent, input: {} as MakerInput },
  actions: {
    registerPayee: (_, _params: RegisterPayeeParams) => {},
  },
}).createMachine({
  id: 'maker',
  context: ({ input }) => ({ record: input.record, paymentMethods: input.paymentMethods }),
  initial: 'REGISTERED',
  states: {
    REGISTERED: {
      entry: {
        type: 'registerPayee',
        params: ({ context }) => ({ paymentMethods: context.paymentMethods, payeeId: context.record.offchainId, at: context.record.createdAt }),
      },
    },
  },
});
