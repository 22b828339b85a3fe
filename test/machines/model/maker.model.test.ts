/**
 * Model-based tests of the maker machine on the `maker-record` kind. Document 3 shows the
 * maker record and no transitions of it ("Transitions of deposits, intents and makers: not
 * shown"): the one path creates it and checks the record in the view and the
 * registerPayee effect queued.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { MAKER_KIND, MAKER_VARIANTS, makerAbstraction, makerEvents } from './maker-events.js';

const model: MachineModel = {
  name: 'maker',
  kind: MAKER_KIND,
  variants: MAKER_VARIANTS,
  events: makerEvents,
  abstract: makerAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
};

modelTests(test, model);
