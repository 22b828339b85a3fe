/**
 * One message the wallet provider sent (the `provider-message` actor), claimed by its
 * message id with the hash of its body the first time its signature verifies. A later
 * message under that id with the same body is a redelivery; with another body it is
 * refused, so a seen id can never carry different content into the store.
 */
import { setup } from 'xstate';

export interface ProviderMessageInput {
  id: string;
  /** The message id header as sent. */
  messageId: string;
  /** sha256 of the body as signed, hex. */
  bodyHash: string;
  /** The message's signed timestamp (ISO). */
  signedAt: string;
  receivedAt: string;
  /** The wallet-transfer actors it reported; empty when it reported no USDC transfer. */
  transferIds: string[];
}

export type ProviderMessageContext = ProviderMessageInput;

export type ProviderMessageEvent = { type: 'ACCEPT' } & Omit<ProviderMessageInput, 'id'>;

export const providerMessageMachine = setup({
  types: { input: {} as ProviderMessageInput, context: {} as ProviderMessageContext, events: {} as ProviderMessageEvent },
}).createMachine({
  id: 'providerMessage',
  context: ({ input }) => input,
  initial: 'ACCEPTED',
  states: { ACCEPTED: {} },
});
