/**
 * Document 1's action error codes (Errors, "Action error.code values"), and which a runner
 * may report. The BLOCKED codes and ACTION_EXPIRED are the machine's own, from staff and
 * the clock: a runner that reports one of them, a code of another action, or one the
 * table lacks is reported as REMEDIATION_FAILED, as the document says of any other value.
 */
import type { ActionName } from './action-types.js';

export const REMEDIATION_FAILED = 'REMEDIATION_FAILED';

/** The codes a runner may end an action with, by action; the first list is every action's. */
const RUNNER_CODES: Readonly<Record<ActionName | 'ALL', readonly string[]>> = {
  ALL: ['NEEDS_MANUAL_REVIEW', REMEDIATION_FAILED],
  FULFILL_SAR: ['FULFILL_FAILED', 'FULFILL_TIMEOUT'],
  EXTEND: [
    'INTENT_ALREADY_EXPIRED',
    'PAYMENT_NOT_OPEN',
    'FIVE_DAY_LIFETIME_EXCEEDED',
    'UNSUPPORTED_INTENT_GUARDIAN',
    'INSUFFICIENT_EXTENSION_TOKEN_BALANCE',
    'INTENT_EXTENSION_TRANSACTION_REVERTED',
  ],
  RECREATE: ['INTENT_NOT_LIVE', 'DISPATCH_FAILED', 'MERCHANT_WALLET_NOT_DELEGATED', 'MERCHANT_SIGNING_UNAVAILABLE'],
};

/** The machine's own codes: BLOCKED by staff or the approval window, FAILED by the pick-up or run deadline. */
export const APPROVAL_REJECTED = 'APPROVAL_REJECTED';
export const APPROVAL_EXPIRED = 'APPROVAL_EXPIRED';
export const ACTION_CANCELED = 'ACTION_CANCELED';
export const ACTION_EXPIRED = 'ACTION_EXPIRED';
export const FULFILL_TIMEOUT = 'FULFILL_TIMEOUT';
export const NEEDS_MANUAL_REVIEW = 'NEEDS_MANUAL_REVIEW';

/** The code an action shows for a runner's `code`. */
export function reportedCode(actionName: ActionName, code: string): string {
  return RUNNER_CODES.ALL.includes(code) || RUNNER_CODES[actionName].includes(code) ? code : REMEDIATION_FAILED;
}
