/**
 * Model-based tests of the bridge machine on the `bridge` kind: no document table (document 1
 * shows the PAYMENT_BRIDGE_* events but not the bridge's transitions; docs/bridges.md has ours).
 * Each step is run on the kind and checked against the machine (a late report of an earlier try
 * changes nothing), and the view's status against the state (RETRYING shows PENDING).
 */
import test from 'ava';
import { bridgeStatusOf } from '../../../machines/bridge/index.js';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { BRIDGE_KIND, BRIDGE_VARIANTS, bridgeAbstraction, bridgeEvents } from './bridge-events.js';

const model: MachineModel = {
  name: 'bridge',
  kind: BRIDGE_KIND,
  variants: BRIDGE_VARIANTS,
  events: bridgeEvents,
  abstract: bridgeAbstraction,
  statusOf: (snapshot) => bridgeStatusOf(snapshot.value),
  viewStatus: (view) => view.status,
};

modelTests(test, model);
