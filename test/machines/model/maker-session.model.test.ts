/**
 * Model-based tests of the maker session machine on the `maker-session` kind: no document
 * table (docs/maker-auth.md describes sessions); each step is checked against the machine,
 * and the view's `signedIn` against its state.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { MAKER_SESSION_KIND, MAKER_SESSION_VARIANTS, makerSessionAbstraction, makerSessionEvents } from './maker-session-events.js';

const model: MachineModel = {
  name: 'maker-session',
  kind: MAKER_SESSION_KIND,
  variants: MAKER_SESSION_VARIANTS,
  events: makerSessionEvents,
  abstract: makerSessionAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
  viewStatus: (view) => (view.signedIn ? 'SIGNED_IN' : 'SIGNED_OUT'),
};

modelTests(test, model);
