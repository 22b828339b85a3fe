/**
 * What the attempt does for a remediation action (document 1, Remediation actions) and how it
 * tells the action how it went. The attempt carries the action out because the attempt is what
 * the chain and the attestation service answer: a reopening's signal, an extension's transaction,
 * a receipt's verification and fulfilment all report to it. It tells the action once, when the
 * outcome is known, and forgets the action then.
 */
import type { PaymentContext, PaymentStatus, RemediationName } from './payment-types.js';

/** The relayer purpose of an extension transaction, so its outcome is told apart from the signal's and the fulfilment's. */
export const EXTEND_PURPOSE = 'extendIntent';

/** Document 1, Limits: an extension adds 24 hours. */
export const EXTENSION_MS = 24 * 60 * 60 * 1000;

/** Document 1, Limits: an attempt lives at most 5 days from its creation, extensions included. */
export const ATTEMPT_LIFETIME_MS = 5 * 24 * 60 * 60 * 1000;

export type RemediationOutcome =
  | { type: 'ACTION_SUCCEEDED'; result: Record<string, unknown>; at: string }
  | { type: 'ACTION_FAILED'; code: string; message: string; at: string };

/**
 * What a reverted extension meant, by the orchestrator's (or the fee token's) error name as the
 * relayer reports it (`Name(args)`): anything else is INTENT_EXTENSION_TRANSACTION_REVERTED.
 */
export const EXTENSION_REVERT_CODES: Readonly<Record<string, string>> = {
  IntentNotFound: 'PAYMENT_NOT_OPEN',
  IntentGuardianNotSet: 'UNSUPPORTED_INTENT_GUARDIAN',
  NotIntentGuardian: 'UNSUPPORTED_INTENT_GUARDIAN',
  IntentAlreadyExpired: 'INTENT_ALREADY_EXPIRED',
  IntentLifetimeExceeded: 'FIVE_DAY_LIFETIME_EXCEEDED',
  ExtensionFeeNotPayable: 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE',
  ERC20InsufficientBalance: 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE',
  ERC20InsufficientAllowance: 'INSUFFICIENT_EXTENSION_TOKEN_BALANCE',
};

/** The code of a reverted extension from the relayer's reason (`IntentLifetimeExceeded(…)`). */
export function extensionRevertCodeOf(reason: string | null): string {
  const name = reason?.match(/^([A-Za-z_][A-Za-z0-9_]*)\(/)?.[1];
  return (name && EXTENSION_REVERT_CODES[name]) || 'INTENT_EXTENSION_TRANSACTION_REVERTED';
}

/** The id of a fulfilment transaction: what a fulfil action reports as its dispatch attempt. */
export const fulfilTransactionId = (paymentId: string, attempt: number) => `${paymentId}-fulfil-${attempt}`;

/** Each reopening signals its own intent: the first signal keeps the id it always had. */
export const signalTransactionId = (paymentId: string, reopenings: number) => (reopenings > 0 ? `${paymentId}-signal-${reopenings}` : `${paymentId}-signal`);

export const cancelTransactionId = (paymentId: string, reopenings: number) => (reopenings > 0 ? `${paymentId}-cancel-${reopenings}` : `${paymentId}-cancel`);

/**
 * How an action the attempt was carrying out ends when the attempt itself ends: a fulfilment
 * from a receipt that settled it succeeded; anything else failed, with the code document 1
 * gives that action for an attempt no longer open.
 */
export function outcomeOnEnd(context: PaymentContext, status: Exclude<PaymentStatus, 'CREATED'>, at: string): RemediationOutcome | null {
  const remediation = context.remediation ?? null;
  if (!remediation) return null;
  if (status === 'SETTLED' && remediation.actionName === 'FULFILL_SAR') {
    return {
      type: 'ACTION_SUCCEEDED',
      result: { dispatchAttemptId: fulfilTransactionId(context.id, context.fulfilAttempts), fulfillTxHash: context.fulfillTransaction },
      at,
    };
  }
  return { type: 'ACTION_FAILED', ...endedCode(remediation.actionName, status, context), at };
}

function endedCode(actionName: RemediationName, status: Exclude<PaymentStatus, 'CREATED'>, context: PaymentContext): { code: string; message: string } {
  const ended = `the attempt ended ${status}${context.errorMessage ? `: ${context.errorMessage}` : ''}`;
  switch (actionName) {
    case 'RECREATE':
      return context.errorCode === 'SIGNAL_INTENT_FAILED'
        ? { code: 'DISPATCH_FAILED', message: context.errorMessage ?? 'the reopened attempt could not be started on chain' }
        : { code: 'INTENT_NOT_LIVE', message: `the reopened attempt was not live when checked: ${ended}` };
    case 'EXTEND':
      return status === 'EXPIRED'
        ? { code: 'INTENT_ALREADY_EXPIRED', message: 'the attempt expired before its extension was confirmed' }
        : { code: 'PAYMENT_NOT_OPEN', message: `${ended} before its extension was confirmed` };
    case 'FULFILL_SAR':
      // The window closed on a fulfilment that did not mine: that failure is the action's.
      return context.errorCode === 'FULFILL_INTENT_FAILED'
        ? { code: 'FULFILL_FAILED', message: context.errorMessage ?? 'the settlement transaction failed on chain' }
        : { code: 'REMEDIATION_FAILED', message: `${ended} before the receipt settled it` };
  }
}

/** The tell of an outcome to the action the attempt carries out. */
export function tellAction(context: PaymentContext, outcome: RemediationOutcome) {
  return { to: { kind: 'action', id: context.remediation!.actionId }, event: outcome };
}
