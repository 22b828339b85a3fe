/**
 * Model-based tests of the maker referral machine on the `maker-referral` kind. Document 3
 * lists the referral endpoints without a state table (docs/maker-referrals.md describes
 * them): each step is checked against the machine through the view.
 */
import test from 'ava';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { MAKER_REFERRAL_KIND, MAKER_REFERRAL_VARIANTS, makerReferralAbstraction, makerReferralEvents } from './maker-referral-events.js';

const model: MachineModel = {
  name: 'maker-referral',
  kind: MAKER_REFERRAL_KIND,
  variants: MAKER_REFERRAL_VARIANTS,
  events: makerReferralEvents,
  abstract: makerReferralAbstraction,
  statusOf: (snapshot) => String(snapshot.value),
};

modelTests(test, model);
