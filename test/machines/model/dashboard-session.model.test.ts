/**
 * Model-based tests of the dashboard session machine on the `dashboard-session` kind
 * (docs/dashboard-auth.md): each step is checked against the machine, and the view's `open`
 * against its state.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { DASHBOARD_SESSION_KIND, DASHBOARD_SESSION_VARIANTS, dashboardSessionAbstraction, dashboardSessionEvents } from './dashboard-session-events.js';

const model: MachineModel = {
  name: 'dashboard-session',
  kind: DASHBOARD_SESSION_KIND,
  variants: DASHBOARD_SESSION_VARIANTS,
  events: dashboardSessionEvents,
  abstract: dashboardSessionAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
  viewStatus: (view) => (view.open ? 'OPEN' : 'ENDED'),
};

modelTests(test, model);
