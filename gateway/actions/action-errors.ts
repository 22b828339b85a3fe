/**
 * Document 1's action errors: the code in `responseObject.code` (and in `errorCode`, as every
 * coded answer here), with the eligibility `reason` or the live action's `actionId` beside it.
 */
import type { ErrorCode } from '../../actors/errors/error-codes.js';
import { ApiError } from '../envelope.js';
import type { Ineligible } from './action-eligibility.js';

export function actionError(status: number, code: ErrorCode, message: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError(status, message, code, { code, ...details });
}

export const sandboxRefused = () => actionError(403, 'SANDBOX_NOT_SUPPORTED', 'Remediation actions run on live payments only: use a live API key');

export const notEligible = ({ reason, message }: Ineligible) => actionError(422, 'PAYMENT_NOT_ELIGIBLE', `The payment is not eligible: ${message}`, { reason });

export const inProgress = (actionId: string, actionName: string) =>
  actionError(409, 'ACTION_IN_PROGRESS', `A ${actionName} action is already live on this attempt: poll ${actionId}`, { actionId });

export const keyMismatch = () => actionError(422, 'IDEMPOTENCY_KEY_MISMATCH', 'This idempotencyKey was used for a different request');
