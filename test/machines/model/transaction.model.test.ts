/**
 * Model-based tests of the transaction machine on the `transaction` kind. No API document
 * has a table for it: each step is checked against the machine itself (state, view, the
 * effects and the owner's one TRANSACTION_OUTCOME queued, the receipt check's timer).
 */
import test from 'ava';
import { transactionStatusOf } from '../../../machines/transaction/index.js';
import type { MachineModel } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { TRANSACTION_KIND, TRANSACTION_VARIANTS, transactionAbstraction, transactionEvents } from './transaction-events.js';

const model: MachineModel = {
  name: 'transaction',
  kind: TRANSACTION_KIND,
  variants: TRANSACTION_VARIANTS,
  events: transactionEvents,
  abstract: transactionAbstraction,
  statusOf: (snapshot) => transactionStatusOf(snapshot.value),
  viewStatus: (view) => view.status,
};

modelTests(test, model);
