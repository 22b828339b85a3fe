/**
 * POST /api/v1/merchants/me/orders/{orderId}/resize (docs/resize.md): the merchant changes
 * a FIXED order's USDC amount while it is still owed, with the API key or from the
 * dashboard (an Owner or a Manager; audited, CSRF as every dashboard write). Document 1
 * names ORDER_RESIZED and RESIZE_NOT_SUPPORTED and shows no trigger; this is ours.
 */
import { z } from 'zod';
import { reply } from '../envelope.js';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { audited, type AuditLog } from '../dashboard/audit-log.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { merchantRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { decimalString } from '../schemas/common.js';
import { checkoutOrder } from './order-resources.js';
import { orderPath } from './order-schemas.js';
import { type ResizeDependencies, resizeOrder } from './resize-order.js';

export interface ResizeOperationDependencies extends ResizeDependencies {
  audit: AuditLog;
}

const resizeOrderBody = z
  .strictObject({
    requestedUsdcAmount: decimalString.meta({
      description: 'The order’s new USDC amount, a decimal with at most 6 decimals, above zero, at least what has settled',
      example: '40',
    }),
    idempotencyKey: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,128}$/, 'must be 8 to 128 letters, digits, underscores or hyphens')
      .meta({
        description: 'Names this resize: the same key and amount answer it again (idempotentReplay true) and change nothing; another amount is a 422',
        example: 'resize-ord-42-1',
      }),
  })
  .meta({ id: 'ResizeOrderRequest', example: { requestedUsdcAmount: '40', idempotencyKey: 'resize-ord-42-1' } });

const amountChange = z
  .object({
    previousAmountUsdc: z.string().meta({ description: 'The amount before this resize, decimal USDC' }),
    newAmountUsdc: z.string().meta({ description: 'The amount after it, decimal USDC' }),
  })
  .meta({ id: 'OrderResize', description: 'What the resize changed: the data.resize of its ORDER_RESIZED' });

const resizeOrderResult = z
  .object({
    order: checkoutOrder,
    resize: amountChange,
    idempotentReplay: z.boolean().meta({ description: 'True when the idempotencyKey had resized the order already: nothing changed now' }),
  })
  .meta({ id: 'ResizeOrderResult', description: 'The order as it is now, and the resize the key names' });

const resizeReason = z
  .enum(['OPEN_AMOUNT', 'DYNAMIC_ORDERS_DISABLED', 'ORDER_FULFILLED', 'ORDER_CANCELLED', 'PAYMENT_MAY_SETTLE', 'BELOW_SETTLED', 'SAME_AMOUNT'])
  .meta({ description: 'Why the order cannot be resized (docs/resize.md)' });

const resizeOperation = defineOperation({
  method: 'post',
  path: '/api/v1/merchants/me/orders/:orderId/resize',
  operationId: 'resizeOrder',
  tags: ['Orders'],
  summary: 'Change a fixed order’s amount while it is still owed',
  description: [
    'A FIXED order that is CREATED or PARTIALLY_FULFILLED takes a new requestedUsdcAmount, at least what has settled; remainingUsdcAmount becomes the new amount less what settled, and requestedFiat becomes null. ORDER_RESIZED is sent with data.resize.',
    'An amount that what settled covers fulfils the order: ORDER_RESIZED, then ORDER_FULFILLED. An attempt still open was quoted on the old amount: it is cancelled (PAYMENT_CANCELLED, its intent released) and the customer starts again at the new amount.',
    'An API key, or a dashboard session of an Owner or a Manager.',
  ].join(' '),
  guard: 'merchant',
  roles: ['OWNER', 'MANAGER'],
  request: { path: orderPath, body: resizeOrderBody },
  before: (deps: ResizeOperationDependencies) => [audited(deps.audit, 'resizeOrder')],
  answers: standardAnswers(
    {
      '200': success(200, resizeOrderResult, 'The order resized, or, for a key that resized it already, as it is now'),
      '400': invalid('the path or the body (an amount with more than 6 decimals, zero, or over the node’s order limit)'),
      ...merchantRefusals(true, [{ code: 'ROLE_NOT_ALLOWED', when: 'the signed-in member is a cashier' }]),
      '404': failure(404, [{ code: 'NOT_FOUND', when: 'the order does not exist, is another merchant’s, or lives in the other environment' }]),
      '409': detailedFailure(409, [
        {
          code: 'RESIZE_NOT_SUPPORTED',
          when: 'an OPEN order (its amount is the customer’s), an order created with dynamic orders off, a FULFILLED or CANCELLED order, an attempt that may still settle, an amount below what settled, or the amount it has; responseObject is { reason, settledUsdcAmount }',
          details: z.object({
            reason: resizeReason,
            settledUsdcAmount: z.string().meta({ description: 'What has settled against the order, decimal USDC: the least it may be resized to' }),
          }),
        },
      ]),
      '422': failure(422, [{ code: 'IDEMPOTENCY_KEY_MISMATCH', when: 'the idempotencyKey resized the order to another amount' }]),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: ResizeOperationDependencies) =>
    async (ctx, { path, body }) => {
      const result = await resizeOrder(deps, ctx.state.account, path.orderId, body);
      reply(ctx, 200, result.idempotentReplay ? 'Order already resized with this idempotencyKey' : 'Order resized', resizeOrderResult, result);
    },
});

export function resizeOperations(): Operation<ResizeOperationDependencies>[] {
  return [resizeOperation];
}
