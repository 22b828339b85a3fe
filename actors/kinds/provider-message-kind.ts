/**
 * The `provider-message` actor kind: one per message id the wallet provider signed,
 * its id derived from that id. The first message claims it; a redelivery (the same
 * body) finds it taken and is answered as accepted, and another body under the same id
 * is refused MESSAGE_ID_REUSED before anything of it is stored.
 */
import { createHash } from 'node:crypto';
import type { AnyMachineSnapshot } from 'xstate';
import { providerMessageMachine, type ProviderMessageContext, type ProviderMessageEvent } from '../../machines/wallet-transfer/index.js';
import { defineKind } from '../runtime/actor-kind.js';

export const PROVIDER_MESSAGE_KIND = 'provider-message';

/** `wpm_` and the sha256 of the message id, which arrives in a header and may hold any visible character. */
export function providerMessageId(messageId: string): string {
  return `wpm_${createHash('sha256').update(messageId).digest('hex')}`;
}

export const providerMessageKind = defineKind({
  name: PROVIDER_MESSAGE_KIND,
  machine: providerMessageMachine,
  machineVersion: 1,
  createdBy: ['ACCEPT'],
  view: (snapshot: AnyMachineSnapshot): Record<string, unknown> => ({ ...(snapshot.context as ProviderMessageContext) }),
  check: (snapshot, event) => {
    if (event.type !== 'ACCEPT' || (snapshot.context as ProviderMessageContext).bodyHash === (event as ProviderMessageEvent).bodyHash) return null;
    return { code: 'MESSAGE_ID_REUSED', message: 'This message id was used before with another body; nothing was stored' };
  },
});
