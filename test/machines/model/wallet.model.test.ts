/**
 * Model-based tests of the wallet machine on the `wallet` kind. No API document has a
 * table for it: each step is checked against the machine (state, view, no effects).
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { WALLET_KIND, WALLET_VARIANTS, walletAbstraction, walletEvents } from './wallet-events.js';

const model: MachineModel = {
  name: 'wallet',
  kind: WALLET_KIND,
  variants: WALLET_VARIANTS,
  events: walletEvents,
  abstract: walletAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
};

modelTests(test, model);
