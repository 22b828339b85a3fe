/** What the remediation routes answer: document 1's MerchantAction, and the acceptance of an action. */
import { z } from 'zod';
import { checkoutPayment } from '../payments/payment-resources.js';

export const actionName = z.enum(['RECREATE', 'EXTEND', 'FULFILL_SAR']).meta({ description: 'Which remediation action' });
export const actionStatus = z
  .enum(['PENDING_APPROVAL', 'QUEUED', 'RUNNING', 'SUCCEEDED', 'BLOCKED', 'FAILED'])
  .meta({ description: 'Where the action stands; SUCCEEDED, BLOCKED and FAILED never change again' });

/** Why a FAILED or BLOCKED action ended. */
export const actionFailure = z
  .object({
    code: z.string().meta({ description: 'Document 1’s action error code; any other is reported as REMEDIATION_FAILED' }),
    message: z.string().meta({ description: 'Why, in words' }),
  })
  .nullable()
  .meta({ description: 'Why a FAILED or BLOCKED action ended; null otherwise' });

export const actionAccepted = z
  .object({
    actionId: z.string().meta({ description: 'The action’s id: poll GET …/orders/{orderId}/actions/{actionId}' }),
    status: actionStatus,
  })
  .meta({ id: 'ActionAccepted', description: 'The action, accepted (202) or replayed for its idempotencyKey (200)' });

export const merchantAction = z
  .object({
    actionId: z.string().meta({ description: 'The action’s id' }),
    actionName,
    paymentId: z.string().meta({ description: 'The attempt it acts on' }),
    status: actionStatus,
    error: actionFailure,
    result: z.record(z.string(), z.unknown()).nullable().meta({
      description:
        'On SUCCEEDED: { intentHash } (recreate), { confirmedExpiryTime } (extend), { dispatchAttemptId, fulfillTxHash } or { alreadyCompleted: true, fulfillTxHash } (fulfill-sar); null otherwise',
    }),
    payment: checkoutPayment.meta({ description: 'The attempt’s current row' }),
    createdAt: z.string().meta({ description: 'When the action was accepted (ISO 8601)' }),
    startedAt: z.string().nullable().meta({ description: 'When it started running; null before' }),
    finishedAt: z.string().nullable().meta({ description: 'When it reached SUCCEEDED, BLOCKED or FAILED; null before' }),
  })
  .meta({ id: 'MerchantAction', description: 'A remediation action on a payment attempt (document 1, MerchantAction)' });

export type MerchantAction = z.output<typeof merchantAction>;
