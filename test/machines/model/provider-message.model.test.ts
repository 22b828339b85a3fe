/**
 * Model-based tests of the provider message machine on the `provider-message` kind: one
 * state and no transitions (document 3, "Inbound wallet-provider webhook", stores each
 * message once); the one path creates it and checks the view.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { PROVIDER_MESSAGE_KIND, PROVIDER_MESSAGE_VARIANTS, providerMessageAbstraction, providerMessageEvents } from './provider-message-events.js';

const model: MachineModel = {
  name: 'provider-message',
  kind: PROVIDER_MESSAGE_KIND,
  variants: PROVIDER_MESSAGE_VARIANTS,
  events: providerMessageEvents,
  abstract: providerMessageAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
};

modelTests(test, model);
