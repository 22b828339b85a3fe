/**
 * One remediation action on a payment attempt (document 1, Remediation actions and Action
 * status), one actor per action. Pure: staff decisions and the runner's reports arrive as
 * events with their time; the run itself is the `runAction` effect the kind runs.
 *
 * The plan decides at creation whether the action waits for Peer-side approval
 * (PENDING_APPROVAL, 15 minutes) or is QUEUED at once. Entering QUEUED asks for the run;
 * the runner reports STARTED before it touches anything (RUNNING), then ACTION_SUCCEEDED
 * or ACTION_FAILED. Each wait has a durable deadline, its length kept in the context.
 *
 * SUCCEEDED, BLOCKED and FAILED are final: the machine takes no event there, so the runtime
 * refuses every late one (a staff decision, a runner's report, a second STARTED) with
 * EVENT_NOT_ACCEPTED and the action never changes again. A runner must stop when its
 * STARTED is refused: the action expired or was cancelled before it ran.
 */
import { assertEvent, assign, setup } from 'xstate';
import { isoAfter } from '../iso-time.js';
import { ACTION_CANCELED, ACTION_EXPIRED, APPROVAL_EXPIRED, APPROVAL_REJECTED, FULFILL_TIMEOUT, NEEDS_MANUAL_REVIEW, reportedCode } from './action-errors.js';
import type { ActionContext, ActionDeadlines, ActionError, ActionEvent, ActionInput, ActionName, RunActionParams } from './action-types.js';

/** Document 1: an action waiting for approval is BLOCKED after 15 minutes. */
export const APPROVAL_WINDOW_MS = 15 * 60_000;
/**
 * How long a queued action may wait for its runner. The run is asked for in the same write
 * that queues it and starts within seconds; 10 minutes outlasts the effect's retries across
 * a node restart, and an action picked up later than that would act on an attempt the
 * merchant has likely given up on.
 */
export const PICK_UP_MS = 10 * 60_000;
/** Document 1: a fulfil can stay RUNNING up to 30 minutes while its transaction is pending, then FULFILL_TIMEOUT. */
export const FULFILL_RUN_MS = 30 * 60_000;
/**
 * Recreate and extend each send one transaction on chain: 15 minutes is many times what a
 * mined one takes. Past it nobody knows whether it landed, so the action fails
 * NEEDS_MANUAL_REVIEW rather than invite a blind retry.
 */
export const CHAIN_RUN_MS = 15 * 60_000;

export function deadlinesOf(actionName: ActionName): ActionDeadlines {
  return { approvalMs: APPROVAL_WINDOW_MS, pickUpMs: PICK_UP_MS, runMs: actionName === 'FULFILL_SAR' ? FULFILL_RUN_MS : CHAIN_RUN_MS };
}

/** The error a RUNNING action ends with when its deadline passes. */
function runTimeout(context: ActionContext): ActionError {
  const minutes = context.deadlines.runMs / 60_000;
  return context.actionName === 'FULFILL_SAR'
    ? { code: FULFILL_TIMEOUT, message: `the fulfil transaction was still pending after ${minutes} minutes; check the payment first` }
    : { code: NEEDS_MANUAL_REVIEW, message: `the action did not finish within ${minutes} minutes; its outcome needs a manual review` };
}

const pickUpBy = (context: ActionContext) => isoAfter(context.queuedAt!, context.deadlines.pickUpMs);

const runParams = ({ context }: { context: ActionContext }): RunActionParams => ({
  actionId: context.id,
  actionName: context.actionName,
  orderId: context.orderId,
  paymentId: context.paymentId,
  merchantId: context.merchantId,
  txId: context.txId,
});

export const actionMachine = setup({
  types: { input: {} as ActionInput, context: {} as ActionContext, events: {} as ActionEvent },
  delays: {
    approvalWindow: ({ context }) => context.deadlines.approvalMs,
    pickUpDeadline: ({ context }) => context.deadlines.pickUpMs,
    runDeadline: ({ context }) => context.deadlines.runMs,
  },
  guards: {
    needsApproval: ({ context }) => context.needsApproval,
    // The timer pass may run a little after the deadline: an event stamped past it is too late all the same.
    approvalLate: ({ context, event }) => event.type === 'APPROVE' && event.at >= context.approvalExpiresAt!,
    pickUpLate: ({ context, event }) => event.type === 'STARTED' && event.at >= pickUpBy(context),
  },
  actions: {
    // Effect: run by the action kind after the write; the runner reports STARTED, then ACTION_SUCCEEDED or ACTION_FAILED.
    runAction: (_, _params: RunActionParams) => {},
    queueNow: assign(({ context }) => ({ queuedAt: context.createdAt })),
    approve: assign(({ event }) => {
      assertEvent(event, 'APPROVE');
      return { approval: { decision: 'APPROVED' as const, by: event.by, at: event.at }, queuedAt: event.at, updatedAt: event.at };
    }),
    reject: assign(({ event }) => {
      assertEvent(event, 'REJECT');
      return {
        approval: { decision: 'REJECTED' as const, by: event.by, at: event.at },
        error: { code: APPROVAL_REJECTED, message: 'Peer-side staff rejected the action' },
        finishedAt: event.at,
        updatedAt: event.at,
      };
    }),
    cancel: assign(({ event }) => {
      assertEvent(event, 'CANCEL');
      return {
        approval: { decision: 'CANCELED' as const, by: event.by, at: event.at },
        error: { code: ACTION_CANCELED, message: 'Peer-side staff cancelled the action' },
        finishedAt: event.at,
        updatedAt: event.at,
      };
    }),
    expireApproval: assign(({ context }) => ({
      error: { code: APPROVAL_EXPIRED, message: `not approved within ${context.deadlines.approvalMs / 60_000} minutes` },
      finishedAt: context.approvalExpiresAt,
      updatedAt: context.approvalExpiresAt!,
    })),
    expirePickUp: assign(({ context }) => ({
      error: { code: ACTION_EXPIRED, message: `not picked up within ${context.deadlines.pickUpMs / 60_000} minutes` },
      finishedAt: pickUpBy(context),
      updatedAt: pickUpBy(context),
    })),
    start: assign(({ event }) => {
      assertEvent(event, 'STARTED');
      return { startedAt: event.at, updatedAt: event.at };
    }),
    succeed: assign(({ event }) => {
      assertEvent(event, 'ACTION_SUCCEEDED');
      return { result: event.result, finishedAt: event.at, updatedAt: event.at };
    }),
    fail: assign(({ context, event }) => {
      assertEvent(event, 'ACTION_FAILED');
      return { error: { code: reportedCode(context.actionName, event.code), message: event.message }, finishedAt: event.at, updatedAt: event.at };
    }),
    timeOut: assign(({ context }) => {
      const at = isoAfter(context.startedAt!, context.deadlines.runMs);
      return { error: runTimeout(context), finishedAt: at, updatedAt: at };
    }),
  },
}).createMachine({
  id: 'action',
  context: ({ input }) => {
    const { at, ...rest } = input;
    const deadlines = deadlinesOf(input.actionName);
    return {
      ...rest,
      deadlines,
      approvalExpiresAt: input.needsApproval ? isoAfter(at, deadlines.approvalMs) : null,
      approval: null,
      queuedAt: null,
      startedAt: null,
      finishedAt: null,
      error: null,
      result: null,
      createdAt: at,
      updatedAt: at,
    };
  },
  initial: 'PLANNED',
  states: {
    /** Left at once: the plan's answer, given at creation, decides the first status. */
    PLANNED: {
      always: [
        { guard: 'needsApproval', target: 'PENDING_APPROVAL' },
        { target: 'QUEUED', actions: 'queueNow' },
      ],
    },
    PENDING_APPROVAL: {
      on: {
        APPROVE: [
          { guard: 'approvalLate', target: 'BLOCKED', actions: 'expireApproval' },
          { target: 'QUEUED', actions: 'approve' },
        ],
        REJECT: { target: 'BLOCKED', actions: 'reject' },
        CANCEL: { target: 'BLOCKED', actions: 'cancel' },
      },
      after: { approvalWindow: { target: 'BLOCKED', actions: 'expireApproval' } },
    },
    QUEUED: {
      entry: { type: 'runAction', params: runParams },
      on: {
        STARTED: [
          { guard: 'pickUpLate', target: 'FAILED', actions: 'expirePickUp' },
          { target: 'RUNNING', actions: 'start' },
        ],
        // The runner found, before starting anything, that the action cannot run (the attempt is no longer open, say).
        ACTION_FAILED: { target: 'FAILED', actions: 'fail' },
      },
      after: { pickUpDeadline: { target: 'FAILED', actions: 'expirePickUp' } },
    },
    RUNNING: {
      on: {
        ACTION_SUCCEEDED: { target: 'SUCCEEDED', actions: 'succeed' },
        ACTION_FAILED: { target: 'FAILED', actions: 'fail' },
      },
      after: { runDeadline: { target: 'FAILED', actions: 'timeOut' } },
    },
    SUCCEEDED: { type: 'final' },
    BLOCKED: { type: 'final' },
    FAILED: { type: 'final' },
  },
});
