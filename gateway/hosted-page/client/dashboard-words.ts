/**
 * The dashboard's words for what the API answers in codes: why an action is refused
 * (docs/remediation.md's eligibility reasons), how a finished action ended (document 1's action
 * error codes), and the statuses a merchant reads.
 */
import type { ActionKind, ActionStatus } from './dashboard-api.js';

export const ACTION_NAMES: Record<ActionKind, string> = {
  recreate: 'Recreate',
  extend: 'Extend 24 hours',
  'fulfill-sar': 'Fulfil from receipt',
};

export const ACTION_PURPOSES: Record<ActionKind, string> = {
  recreate: 'Reopens an expired, cancelled or failed attempt with a fresh window and a new intent.',
  extend: 'Gives an attempt about to expire 24 more hours (at most 5 days from its creation).',
  'fulfill-sar': 'Settles an attempt from the transaction id on the customer’s receipt.',
};

export type EligibilityReason =
  | 'RAIL_NOT_SUPPORTED'
  | 'PAYMENT_STATUS_NOT_ELIGIBLE'
  | 'ORDER_STATUS_NOT_ELIGIBLE'
  | 'INTENT_HASH_MISSING'
  | 'EXTEND_TOO_EARLY'
  | 'SAR_DISABLED'
  | 'PAYPAL_NOT_SUPPORTED'
  | 'SAR_RAIL_DISABLED'
  | 'SAR_NOT_AVAILABLE';

/** The 422 PAYMENT_NOT_ELIGIBLE reasons, in the merchant's words. */
export const REASONS: Record<EligibilityReason, string> = {
  RAIL_NOT_SUPPORTED: 'The attempt’s payment app is not a fiat rail this order and your settings still enable.',
  PAYMENT_STATUS_NOT_ELIGIBLE: 'The attempt is not in a status this action takes.',
  ORDER_STATUS_NOT_ELIGIBLE: 'The order is paid or cancelled, or another attempt of it is still in progress.',
  INTENT_HASH_MISSING: 'The attempt has no intent on chain yet.',
  EXTEND_TOO_EARLY: 'The attempt expires in more than 6 hours: extend it once it is closer to its end.',
  SAR_DISABLED: 'This node cannot settle from receipts (no attestation service or chain).',
  PAYPAL_NOT_SUPPORTED: 'PayPal payments cannot be settled from a receipt.',
  SAR_RAIL_DISABLED: 'Settling from receipts is switched off for this payment app.',
  SAR_NOT_AVAILABLE: 'The recipient of this attempt does not offer automated release.',
};

/** Other refusals of an action request, by errorCode. */
export const ACTION_REFUSALS: Record<string, string> = {
  ROLE_NOT_ALLOWED: 'Only an Owner or a Manager may do this.',
  SANDBOX_NOT_SUPPORTED: 'No money moves in the sandbox: actions act on live payments only.',
  ACTION_DENIED: 'Your plan does not allow this action.',
  ACTION_IN_PROGRESS: 'An action of this kind is already under way on this attempt.',
  FEATURE_DISABLED: 'This action is switched off for now.',
  SUPPORT_UNAVAILABLE: 'Support did not answer in time: try again.',
  ORDER_STATUS_NOT_ELIGIBLE: 'The order is paid or cancelled already.',
  PAYMENT_NOT_CANCELLABLE: 'An attempt is being verified or settled: try again once it has ended.',
};

/** How a finished action ended, by its error code (document 1). */
export const ACTION_ERRORS: Record<string, string> = {
  NEEDS_MANUAL_REVIEW: 'Needs manual review by Peer.',
  APPROVAL_REJECTED: 'Peer’s staff rejected it.',
  APPROVAL_EXPIRED: 'Nobody approved it within 15 minutes.',
  ACTION_CANCELED: 'Peer’s staff cancelled it.',
  ACTION_EXPIRED: 'It was not picked up in time.',
  FULFILL_FAILED: 'The settlement transaction failed on chain; a new request retries.',
  FULFILL_TIMEOUT: 'The transaction was still pending at the deadline: check the payment first.',
  INTENT_ALREADY_EXPIRED: 'The attempt had already expired when the extension ran.',
  PAYMENT_NOT_OPEN: 'The attempt was no longer open when the extension ran.',
  FIVE_DAY_LIFETIME_EXCEEDED: 'The attempt reached its 5-day lifetime.',
  UNSUPPORTED_INTENT_GUARDIAN: 'This attempt cannot be extended.',
  INSUFFICIENT_EXTENSION_TOKEN_BALANCE: 'Extensions are unavailable for now; retry later.',
  INTENT_EXTENSION_TRANSACTION_REVERTED: 'The extension transaction reverted; a new request retries.',
  INTENT_NOT_LIVE: 'The reopened attempt was not live when checked.',
  DISPATCH_FAILED: 'The reopened attempt could not be started on chain; a new request retries.',
  MERCHANT_WALLET_NOT_DELEGATED: 'Your signing wallet is not ready.',
  MERCHANT_SIGNING_UNAVAILABLE: 'Your signing wallet is not ready.',
  REMEDIATION_FAILED: 'It could not be completed.',
};

export const ACTION_STATUSES: Record<ActionStatus, string> = {
  PENDING_APPROVAL: 'Waiting for Peer’s approval (up to 15 minutes)',
  QUEUED: 'Queued',
  RUNNING: 'Running',
  SUCCEEDED: 'Succeeded',
  BLOCKED: 'Blocked',
  FAILED: 'Failed',
};

export const FINAL_ACTION_STATUSES: ReadonlySet<ActionStatus> = new Set(['SUCCEEDED', 'BLOCKED', 'FAILED']);

export const ROLE_NAMES = { OWNER: 'Owner', MANAGER: 'Manager', CASHIER: 'Cashier' } as const;

export const SIGN_IN_REFUSALS: Record<string, string> = {
  WRONG_CODE: 'That code is not the one we sent. Check it and try again.',
  CODE_EXPIRED: 'That code has expired: send a new one.',
  NO_CODE: 'No code is waiting for this address: send one first.',
  CODE_USED: 'That code was used already: send a new one.',
  TOO_MANY_TRIES: 'Too many wrong tries: send a new code.',
};

/** Why a passkey did not sign in or register, by PASSKEY_SIGN_IN_INVALID's or PASSKEY_REGISTRATION_INVALID's reason. */
export const PASSKEY_REFUSALS: Record<string, string> = {
  CHALLENGE_INVALID: 'That passkey answer is no longer valid: try again.',
  CHALLENGE_EXPIRED: 'That took too long: try again.',
  UNKNOWN_CREDENTIAL: 'That passkey is not registered to anyone on a team. Sign in with an e-mailed code.',
  SIGNATURE_INVALID: 'That passkey’s answer could not be verified.',
  COUNTER_REGRESSED: 'That passkey looks copied: remove it and register it again.',
  VERIFICATION_FAILED: 'That passkey could not be verified.',
};

/** A refusal in words: the table's, else the server's own message. */
export function refusalWords(code: string | null, message: string, reason?: unknown): string {
  if (code === 'PAYMENT_NOT_ELIGIBLE' && typeof reason === 'string') return `Refused (${reason}): ${REASONS[reason as EligibilityReason] ?? message}`;
  return (code && ACTION_REFUSALS[code]) ?? message;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
