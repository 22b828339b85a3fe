/**
 * Model-based tests of the webhook endpoint machine on the `webhook` kind. No API document
 * has a table for endpoints (docs/webhooks.md describes them): each step is checked
 * against the machine, and the view's `active` and `deleted` against its state.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { WEBHOOK_KIND, WEBHOOK_VARIANTS, webhookAbstraction, webhookEvents } from './webhook-events.js';

const model: MachineModel = {
  name: 'webhook',
  kind: WEBHOOK_KIND,
  variants: WEBHOOK_VARIANTS,
  events: webhookEvents,
  abstract: webhookAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
  viewStatus: (view) => (view.deleted ? 'DELETED' : view.active ? 'ACTIVE' : 'DISABLED'),
};

modelTests(test, model);
