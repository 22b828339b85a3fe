/**
 * A stored USDC transfer (the `wallet-transfer` actor): created once by RECORD, then
 * never changed. It is an actor so that storing goes through one conditional write
 * like every other write, and so that a transfer reported twice, by concurrent
 * messages or on different nodes, lands on one address and is stored once.
 */
import { setup } from 'xstate';
import type { CanonicalTransfer } from './canonical-transfer.js';

export interface WalletTransferInput {
  id: string;
  transfer: CanonicalTransfer;
  /** The signed time of the first message that reported it (ISO): the provider's events carry no block time. */
  reportedAt: string;
}

export type WalletTransferContext = WalletTransferInput;

export type WalletTransferEvent = { type: 'RECORD' } & Omit<WalletTransferInput, 'id'>;

export const walletTransferMachine = setup({
  types: { input: {} as WalletTransferInput, context: {} as WalletTransferContext, events: {} as WalletTransferEvent },
}).createMachine({
  id: 'walletTransfer',
  context: ({ input }) => input,
  initial: 'RECORDED',
  states: { RECORDED: {} },
});
