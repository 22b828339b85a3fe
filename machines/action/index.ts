/**
 * machines/action: one remediation action (recreate, extend or fulfil with a receipt id) on a
 * payment attempt, from the plan's approval wait to its final status, and what it reads as.
 */
export {
  actionMachine,
  APPROVAL_WINDOW_MS,
  CHAIN_RUN_MS,
  deadlinesOf,
  FULFILL_RUN_MS,
  PICK_UP_MS,
} from './action-machine.js';
export {
  ACTION_CANCELED,
  ACTION_EXPIRED,
  APPROVAL_EXPIRED,
  APPROVAL_REJECTED,
  FULFILL_TIMEOUT,
  NEEDS_MANUAL_REVIEW,
  REMEDIATION_FAILED,
  reportedCode,
} from './action-errors.js';
export { actionStatusOf, toActionView } from './action-view.js';
export type { ActionView } from './action-view.js';
export type {
  ActionContext,
  ActionDeadlines,
  ActionError,
  ActionEvent,
  ActionInput,
  ActionName,
  ActionResult,
  ActionStatus,
  ApprovalDecision,
  RunActionParams,
} from './action-types.js';
