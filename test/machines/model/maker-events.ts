/**
 * The maker model's inputs: one payee on Zelle registered under two banks. The record
 * never changes (document 3 shows no maker transitions), so there is nothing to send it.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { makerRecordKind } from '../../../actors/kinds/index.js';
import type { StoredMakerRecord } from '../../../machines/maker/index.js';
import type { Variant } from '../../support/model-paths.js';

/** The directory is reached only by the registerPayee effect, which the runner stands in for. */
export const MAKER_KIND = makerRecordKind;

const record: StoredMakerRecord = {
  id: 1,
  processorName: 'zelle',
  offchainId: 'maker@example.com',
  telegramUsername: 'model_maker',
  hashedOnchainId: `0x${'ab'.repeat(32)}`,
  isBusiness: false,
  revoked: false,
  metadataJson: null,
  createdAt: '2026-11-23T12:00:00.000Z',
};

export const MAKER_VARIANTS: Variant[] = [
  { name: 'zelle payee', id: `zelle-${'ab'.repeat(32)}`, create: { type: 'CREATE', record, paymentMethods: ['zelle-chase', 'zelle-bofa'] } },
];

export const makerEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => [];

export const makerAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
