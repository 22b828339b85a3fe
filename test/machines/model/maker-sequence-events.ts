/** The maker sequence model's inputs: the one sequence actor, opened, and asked for numbers. */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { MAKER_SEQUENCE_ID, makerSequenceKind } from '../../../actors/kinds/index.js';
import type { Variant } from '../../support/model-paths.js';

export const MAKER_SEQUENCE_KIND = makerSequenceKind;

export const MAKER_SEQUENCE_VARIANTS: Variant[] = [{ name: 'the sequence', id: MAKER_SEQUENCE_ID, create: { type: 'OPEN' } }];

export const makerSequenceEvents = (_snapshot: AnyMachineSnapshot): EventObject[] => [{ type: 'TAKE' }];

export const makerSequenceAbstraction = (snapshot: AnyMachineSnapshot): unknown => snapshot.value;
