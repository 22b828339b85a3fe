/** The remediation routes' paths and bodies (document 1, Remediation actions, and Limits). */
import { z } from 'zod';
import { idPattern } from '../ids.js';
import { paymentId } from '../payments/payment-schemas.js';
import { orderId } from '../schemas/common.js';

export const actionId = z
  .string()
  .regex(idPattern('act'), 'must be an action id: act_ and 24 letters or digits')
  .meta({ description: 'An action id: act_ and 24 letters or digits', example: 'act_4Fz1hQk9TbW2mX7pLr0sVc3N' });

export const actionPaymentPath = z.strictObject({ orderId, paymentId });
export const actionPath = z.strictObject({ orderId, actionId });

const idempotencyKey = z
  .string()
  .min(8)
  .max(200)
  .meta({ description: 'Replays the action it first made, in any state; 8 to 200 characters', example: 'extend-ord-42-attempt-1' });

/** Recreate and extend: the body is optional and holds the key only. */
export const actionBody = z
  .strictObject({ idempotencyKey: idempotencyKey.optional() })
  .meta({ example: { idempotencyKey: 'extend-ord-42-attempt-1' } })
  .optional();

export const fulfillSarBody = z
  .strictObject({
    idempotencyKey: idempotencyKey.optional(),
    txId: z.string().min(1).max(256).meta({ description: 'The transaction or payment id on the customer’s receipt, 1 to 256 characters', example: '4100001' }),
  })
  .meta({ example: { idempotencyKey: 'fulfil-ord-42-attempt-1', txId: '4100001' } });
