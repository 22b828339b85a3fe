/**
 * Model-based tests of the atomic deposit creation machine on the `deposit` kind, against
 * document 3's table (../shared/spec/3-market-deposit-attestation-api.md, "States and
 * transitions": (new) to pending on POST atomic-create, pending to confirmed with the
 * transaction hash set) and its status object ("Atomic-create request and status":
 * transactionHash null while pending). `failed` is ours (docs/atomic-create.md): the steps
 * into it are listed beyond the document. The effects (signing and submitting the batch,
 * reading the escrow) are stood in for; their reports are sent by the paths.
 */
import test from 'ava';
import { depositView } from '../../../actors/kinds/index.js';
import { MAX_SUBMISSIONS, depositStatusOf, type DepositContext } from '../../../machines/deposit/index.js';
import { NEW, type DocumentTable } from '../../support/model-document.js';
import type { MachineModel, ModelStep } from '../../support/model-paths.js';
import { modelTests } from '../../support/model-tests.js';
import { DEPOSIT_KIND, DEPOSIT_VARIANTS, depositAbstraction, depositEvents, minedHashOf } from './deposit-events.js';

const STATUS_TABLE = 'document 3, States and transitions';
const STATUS_OBJECT = 'document 3, Atomic-create request and status';
const viewAfter = (step: ModelStep) => depositView(step.after);
const FAILED_IS_OURS = "failed is ours, beside document 3's pending and confirmed (docs/atomic-create.md, States)";

const document: DocumentTable = {
  // The machine emits no domain events, and document 3 names none for atomic-create.
  events: [],
  rows: [
    {
      section: STATUS_TABLE,
      row: 'POST atomic-create, calldata valid, deposit id reserved, batch submitted: pending',
      from: [NEW],
      by: ['create'],
      to: 'pending',
      emits: [],
      holds: { what: 'transactionHash null while pending', check: (step) => viewAfter(step).transactionHash === null },
    },
    {
      section: STATUS_TABLE,
      row: 'on-chain confirmation: confirmed (transactionHash set)',
      from: ['pending'],
      by: ['DEPOSIT_CHECKED'],
      to: 'confirmed',
      emits: [],
      holds: {
        what: "transactionHash set to the mined batch's hash (0x plus 64 hex), confirmedAt set",
        check: (step) => {
          const view = viewAfter(step);
          return (
            /^0x[0-9a-f]{64}$/i.test(view.transactionHash ?? '') &&
            view.transactionHash === minedHashOf((step.after.context as DepositContext).attempt) &&
            view.confirmedAt !== null
          );
        },
      },
    },
    {
      section: STATUS_OBJECT,
      row: 'still pending: transactionHash null while pending',
      from: ['pending'],
      by: ['BATCH_SUBMITTED', 'TRANSACTION_OUTCOME', 'DEPOSIT_CHECKED'],
      to: 'pending',
      emits: [],
      holds: { what: 'transactionHash null while pending', check: (step) => viewAfter(step).transactionHash === null },
    },
  ],
  beyond: {
    'deposit.pending.submitting|SUBMISSION_REFUSED|0': `${FAILED_IS_OURS}: the wallet provider holds no embedded wallet`,
    'deposit.pending.submitted|TRANSACTION_OUTCOME|2': `${FAILED_IS_OURS}: the batch would revert, reverted on chain, was replaced, or lost its id on all ${MAX_SUBMISSIONS} submissions`,
    'deposit.pending.checking|DEPOSIT_CHECKED|2': `${FAILED_IS_OURS}: the batch was mined without its deposit on the last submission`,
  },
};

const model: MachineModel = {
  name: 'deposit',
  kind: DEPOSIT_KIND,
  variants: DEPOSIT_VARIANTS,
  events: depositEvents,
  abstract: depositAbstraction,
  statusOf: (snapshot) => depositStatusOf(snapshot.value),
  viewStatus: (view) => view.status,
  document,
};

modelTests(test, model);
