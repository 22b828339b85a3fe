/**
 * Model-based tests of the merchant machine on the `merchant` kind: one state, so each
 * step is checked against the machine through the view (the MerchantProfile of document 1).
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { MERCHANT_KIND, MERCHANT_VARIANTS, merchantAbstraction, merchantEvents } from './merchant-events.js';

const model: MachineModel = {
  name: 'merchant',
  kind: MERCHANT_KIND,
  variants: MERCHANT_VARIANTS,
  events: merchantEvents,
  abstract: merchantAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
};

modelTests(test, model);
