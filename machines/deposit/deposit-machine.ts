/**
 * An atomic deposit creation (document 3, States: a request is `pending` once its calldata is
 * valid, its deposit id reserved and its batch submitted, and `confirmed` with the transaction
 * hash once the batch is mined). Inside `pending`: the batch is being signed and handed to the
 * relayer, then waits to be mined, then the escrow is read to see the deposit is really there.
 *
 * The batch asserts on chain that the escrow's next deposit is the reserved one. Another
 * deposit created in between makes the batch revert whole, with nothing applied; the request
 * then submits again under a newly reserved id, a bounded number of times. `failed` is ours,
 * not the document's: a request whose batch can never succeed must end somewhere.
 */
import { assign, enqueueActions, setup } from 'xstate';
import { topState } from '../top-state.js';
import type { TransactionOutcomeEvent } from '../transaction/index.js';
import type { DepositContext, DepositEvent, DepositFailure, DepositRequest } from './deposit-types.js';

/** Submissions a request may make before it fails: each one lost a race for its reserved id, or had its nonce spent. */
export const MAX_SUBMISSIONS = 3;

/** Reverts that say nothing about the maker's calls: the id was taken, or the batch waited past its deadline. */
const RESUBMITTABLE_REVERTS = /^(DepositIdTaken|BatchExpired)\(/;

export type DepositStatus = 'pending' | 'confirmed' | 'failed';

/** The relayer's transaction of a submission: derived, so a re-run of the submitting effect finds the one it prepared. */
export function batchTransactionId(requestId: string, attempt: number): string {
  return `${requestId}-batch-${attempt}`;
}

export function depositStatusOf(value: unknown): DepositStatus {
  return topState(value) as DepositStatus;
}

const outcomeOf = (context: DepositContext, event: DepositEvent): TransactionOutcomeEvent | null =>
  event.type === 'TRANSACTION_OUTCOME' && event.transactionId === context.transactionId ? event : null;

const mayResubmit = (context: DepositContext) => context.attempt + 1 < MAX_SUBMISSIONS;

/** A check of an earlier submission's deposit says nothing about the current one. */
const currentCheck = (context: DepositContext, event: DepositEvent): event is Extract<DepositEvent, { type: 'DEPOSIT_CHECKED' }> =>
  event.type === 'DEPOSIT_CHECKED' && event.attempt === context.attempt;

/** Why a submission that did not mine ended, and whether another under a new id could succeed. */
function judgeOutcome(event: TransactionOutcomeEvent): { resubmit: boolean; failure: DepositFailure } {
  const { status, hash, reason } = event.outcome;
  if (status === 'DROPPED') return { resubmit: true, failure: { code: 'SUBMISSION_FAILED', message: "the relayer's transaction was dropped" } };
  if (status === 'FAILED' && reason && RESUBMITTABLE_REVERTS.test(reason)) {
    return { resubmit: true, failure: { code: 'SUBMISSION_FAILED', message: `the batch reverted: ${reason}` } };
  }
  if (status === 'FAILED' && hash === null) {
    return { resubmit: false, failure: { code: 'CALLDATA_REVERTS', message: `the batch would revert: ${reason ?? 'no reason given'}` } };
  }
  return {
    resubmit: false,
    failure: {
      code: 'SUBMISSION_FAILED',
      message: `the batch ${status === 'REPLACED' ? 'was replaced' : `reverted on chain: ${reason ?? 'no reason given'}`}`,
    },
  };
}

export const depositMachine = setup({
  types: {
    input: {} as DepositRequest,
    context: {} as DepositContext,
    events: {} as DepositEvent,
  },
  guards: {
    currentSubmission: ({ context, event }) => 'attempt' in event && event.attempt === context.attempt,
    ownEarlyOutcome: ({ context, event }) =>
      event.type === 'TRANSACTION_OUTCOME' && event.transactionId === batchTransactionId(context.requestId, context.attempt),
    mined: ({ context, event }) => outcomeOf(context, event)?.outcome.status === 'MINED',
    resubmittable: ({ context, event }) => {
      const outcome = outcomeOf(context, event);
      return outcome !== null && mayResubmit(context) && judgeOutcome(outcome).resubmit;
    },
    unmined: ({ context, event }) => outcomeOf(context, event) !== null,
    held: ({ context, event }) => currentCheck(context, event) && event.held,
    checkedMissing: ({ context, event }) => currentCheck(context, event) && !event.held,
    resubmitMissing: ({ context, event }) => currentCheck(context, event) && !event.held && mayResubmit(context),
  },
  actions: {
    submitBatch: (
      _,
      _params: { requestId: string; attempt: number; wallet: DepositContext['wallet']; depositId: bigint | null; calls: DepositContext['calls'] },
    ) => {},
    checkDeposit: (
      _,
      _params: { requestId: string; attempt: number; wallet: DepositContext['wallet']; escrow: DepositContext['escrow']; depositId: bigint },
    ) => {},
    acknowledge: assign(() => ({})),
    // The submitting effect handed the batch over, then was cut off before reporting it: the outcome may come first.
    keepEarlyOutcome: assign(({ event }) => (event.type === 'TRANSACTION_OUTCOME' ? { earlyOutcome: event } : {})),
    replayEarlyOutcome: enqueueActions(({ context, enqueue }) => {
      if (context.earlyOutcome) enqueue.raise(context.earlyOutcome);
    }),
    recordSubmitted: assign(({ event }) =>
      event.type === 'BATCH_SUBMITTED' ? { depositId: event.depositId, transactionId: event.transactionId, earlyOutcome: null, updatedAt: event.at } : {},
    ),
    recordMined: assign(({ event }) => (event.type === 'TRANSACTION_OUTCOME' ? { transactionHash: event.outcome.hash, updatedAt: event.outcome.at } : {})),
    nextSubmission: assign(({ context, event }) => ({
      attempt: context.attempt + 1,
      transactionId: null,
      transactionHash: null,
      updatedAt: event.type === 'TRANSACTION_OUTCOME' ? event.outcome.at : 'at' in event ? (event.at as number) : context.updatedAt,
    })),
    recordRefused: assign(({ event }) => (event.type === 'SUBMISSION_REFUSED' ? { failure: event.failure, updatedAt: event.at } : {})),
    recordUnmined: assign(({ event }) => (event.type === 'TRANSACTION_OUTCOME' ? { failure: judgeOutcome(event).failure, updatedAt: event.outcome.at } : {})),
    recordMissing: assign(({ context, event }) => ({
      failure: { code: 'SUBMISSION_FAILED' as const, message: `the batch was mined but the escrow holds no deposit ${context.depositId} of ${context.wallet}` },
      updatedAt: event.type === 'DEPOSIT_CHECKED' ? event.at : context.updatedAt,
    })),
    recordConfirmed: assign(({ event }) => (event.type === 'DEPOSIT_CHECKED' ? { confirmedAt: event.at, updatedAt: event.at } : {})),
  },
}).createMachine({
  id: 'deposit',
  context: ({ input }) => ({
    ...input,
    attempt: 0,
    transactionId: null,
    earlyOutcome: null,
    transactionHash: null,
    failure: null,
    confirmedAt: null,
    createdAt: input.at,
    updatedAt: input.at,
  }),
  initial: 'pending',
  states: {
    pending: {
      initial: 'submitting',
      states: {
        submitting: {
          entry: {
            type: 'submitBatch',
            // The first submission uses the id the request reserved; a later one reserves afresh.
            params: ({ context }) => ({
              requestId: context.requestId,
              attempt: context.attempt,
              wallet: context.wallet,
              depositId: context.attempt === 0 ? context.depositId : null,
              calls: context.calls,
            }),
          },
          on: {
            BATCH_SUBMITTED: { guard: 'currentSubmission', target: 'submitted', actions: ['replayEarlyOutcome', 'recordSubmitted'] },
            SUBMISSION_REFUSED: { guard: 'currentSubmission', target: '#deposit.failed', actions: 'recordRefused' },
            TRANSACTION_OUTCOME: { guard: 'ownEarlyOutcome', actions: 'keepEarlyOutcome' },
          },
        },
        submitted: {
          on: {
            TRANSACTION_OUTCOME: [
              { guard: 'mined', target: 'checking', actions: 'recordMined' },
              { guard: 'resubmittable', target: 'submitting', actions: 'nextSubmission' },
              { guard: 'unmined', target: '#deposit.failed', actions: 'recordUnmined' },
            ],
          },
        },
        checking: {
          entry: {
            type: 'checkDeposit',
            params: ({ context }) => ({
              requestId: context.requestId,
              attempt: context.attempt,
              wallet: context.wallet,
              escrow: context.escrow,
              depositId: context.depositId,
            }),
          },
          on: {
            DEPOSIT_CHECKED: [
              { guard: 'held', target: '#deposit.confirmed', actions: 'recordConfirmed' },
              // Mined without running the batch (the wallet's delegation did not take): nothing was applied, so submit again.
              { guard: 'resubmitMissing', target: 'submitting', actions: 'nextSubmission' },
              { guard: 'checkedMissing', target: '#deposit.failed', actions: 'recordMissing' },
            ],
          },
        },
      },
      on: {
        // An outcome no substate takes (an earlier submission's, judged already, or another transaction's) is only acknowledged.
        TRANSACTION_OUTCOME: { actions: 'acknowledge' },
      },
    },
    confirmed: {
      type: 'final',
    },
    failed: {
      type: 'final',
    },
  },
});
