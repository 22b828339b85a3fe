/**
 * Model-based tests of the referral code machine on the `referral-code` kind: no document
 * table (docs/maker-referrals.md describes codes); each step is checked against the
 * machine, and the view's `held` against its state.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { REFERRAL_CODE_KIND, REFERRAL_CODE_VARIANTS, referralCodeAbstraction, referralCodeEvents } from './referral-code-events.js';

const model: MachineModel = {
  name: 'referral-code',
  kind: REFERRAL_CODE_KIND,
  variants: REFERRAL_CODE_VARIANTS,
  events: referralCodeEvents,
  abstract: referralCodeAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
  viewStatus: (view) => (view.held ? 'HELD' : 'RELEASED'),
};

modelTests(test, model);
