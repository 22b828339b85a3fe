/**
 * Model-based tests of the dispute machine on the `dispute` kind: no document table
 * (document 1 says "Transitions: not shown" for the dispute status; docs/disputes.md has
 * ours). Each step is checked against the machine and the kind's refusals (a payment of
 * a dispute no longer OPEN), the emitted DISPUTE_* events and the stake claim effect, and
 * the view's status against the state.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { DISPUTE_KIND, DISPUTE_VARIANTS, disputeAbstraction, disputeEvents } from './dispute-events.js';

const model: MachineModel = {
  name: 'dispute',
  kind: DISPUTE_KIND,
  variants: DISPUTE_VARIANTS,
  events: disputeEvents,
  abstract: disputeAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
  viewStatus: (view) => view.status,
};

modelTests(test, model);
