/**
 * The provider message model's inputs: one message of the wallet provider, accepted. A
 * redelivery is another ACCEPT, which the runtime answers ALREADY_EXISTS before the
 * machine sees it: the machine has nothing more to take.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { providerMessageId, providerMessageKind } from '../../../actors/wallet-transfers/index.js';
import type { Variant } from '../../support/model-paths.js';

export const PROVIDER_MESSAGE_KIND = providerMessageKind;

export const PROVIDER_MESSAGE_VARIANTS: Variant[] = [
  {
    name: 'one transfer reported',
    id: providerMessageId('msg_model_1'),
    create: {
      type: 'ACCEPT',
      messageId: 'msg_model_1',
      bodyHash: 'd'.repeat(64),
      signedAt: '2026-11-23T12:00:00.000Z',
      receivedAt: '2026-11-23T12:00:01.000Z',
      transferIds: ['wtr_model'],
    },
  },
];

export const providerMessageEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => [];

export const providerMessageAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
