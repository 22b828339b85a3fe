/**
 * Model-based tests of a payout customer's sign-in codes on the `cashout-login` kind: no
 * document table (document 2 says only that the customer signs in with a one-time code;
 * docs/payout-checkout.md, "Signing in", has our rules); each step is checked against the
 * machine and the kind's refusals, and the view against the state.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { CASHOUT_LOGIN_KIND, CASHOUT_LOGIN_VARIANTS, cashoutLoginAbstraction, cashoutLoginEvents } from './cashout-login-events.js';

const model: MachineModel = {
  name: 'cashout-login',
  kind: CASHOUT_LOGIN_KIND,
  variants: CASHOUT_LOGIN_VARIANTS,
  events: cashoutLoginEvents,
  abstract: cashoutLoginAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
  viewStatus: (view) => (view.payoutId ? 'OPEN' : 'unknown'),
};

modelTests(test, model);
