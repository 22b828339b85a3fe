/**
 * Model-based tests of the maker sequence machine on the `maker-record-sequence` kind: no
 * document table (document 3's record ids are only said to be numbers); each step is
 * checked against the machine through the view's `issued`.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { MAKER_SEQUENCE_KIND, MAKER_SEQUENCE_VARIANTS, makerSequenceAbstraction, makerSequenceEvents } from './maker-sequence-events.js';

const model: MachineModel = {
  name: 'maker-sequence',
  kind: MAKER_SEQUENCE_KIND,
  variants: MAKER_SEQUENCE_VARIANTS,
  events: makerSequenceEvents,
  abstract: makerSequenceAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
};

modelTests(test, model);
