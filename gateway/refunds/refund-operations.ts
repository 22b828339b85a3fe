/**
 * Refunds of an order (docs/refunds.md), with the API key: refund all or part of a FULFILLED
 * order as a payout to its customer, and read the order's refunds. Document 1 gives the
 * order's refund fields and events and no trigger; this is ours.
 */
import { z } from 'zod';
import { currentOrderView, orderKind } from '../../actors/kinds/order-kind.js';
import { detailedFailure } from '../checkout/checkout-answers.js';
import { orderNotFound } from '../checkout/order-access.js';
import { reply } from '../envelope.js';
import type { Middleware } from 'koa';
import type { GatewayState } from '../state.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { apiKeyRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { orderPath } from '../orders/order-schemas.js';
import { orderStatus } from '../orders/order-resources.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../payouts/payout-schemas.js';
import { PAYOUT_PREPARATION_FAILURES, PAYOUT_RAIL_AND_ROUTE_REFUSALS } from '../payouts/payout-create-refusals.js';
import { type CreateRefundDependencies, createRefund } from './create-refund.js';
import { createRefundResponse, orderRefunds } from './refund-resources.js';
import { createRefundBody } from './refund-schemas.js';

export interface RefundDependencies extends CreateRefundDependencies {
  /** Document 1's remediation reads: one budget per merchant, shared with the payment list and the action poll. */
  remediationReads: Middleware<GatewayState>;
}

const ORDER_NOT_FOUND = { code: 'NOT_FOUND' as const, when: 'the order does not exist, is another merchant’s, or lives in the other environment' };

const createRefundOperation = defineOperation({
  method: 'post',
  path: '/api/v1/merchants/me/orders/:orderId/refunds',
  operationId: 'createRefund',
  tags: ['Refunds'],
  summary: 'Refund all or part of a fulfilled order',
  description: [
    'The refund is a payout of `amount` USDC on Base to the order’s customer (customerEmail): 201 with the refund, the order, and the payout to fund exactly as a payout created with POST /api/v1/payouts, and its checkoutUrl for the customer.',
    'The order’s refundStatus is PENDING from now (REFUND_PENDING) and COMPLETED once the payout is funded (REFUND_COMPLETED); a payout that expires or is cancelled unfunded refunds nothing. Refunds never move the order off FULFILLED.',
    'Idempotency-Key as for a payout: the same key and body answer 200 with the refund as it is now; another body, or another order, is a 409. One key names one payout or refund.',
  ].join(' '),
  guard: 'apiKey',
  request: { path: orderPath, body: createRefundBody },
  documented: {
    header: z.object({
      'idempotency-key': z
        .string()
        .regex(IDEMPOTENCY_KEY_PATTERN)
        .meta({ description: 'Required: 8 to 128 letters, digits, _ or -; one key per refund', example: 'refund-2026-0001' }),
    }),
  },
  answers: standardAnswers(
    {
      '201': success(201, createRefundResponse, 'Refund created: fund its payout'),
      '200': success(200, createRefundResponse, 'A replay of the Idempotency-Key: the refund, the order and the payout as they are now'),
      '400': invalid('the path or the body (the payout create’s rules for customerEmail, funding, rails, merchantReference and returnUrl)', [
        { code: 'INVALID_IDEMPOTENCY_KEY', when: 'the Idempotency-Key header is missing or malformed' },
        { code: 'PAYOUT_ABOVE_MAX', when: 'above 1,000 USDC, the most one payout pays: refund more in several refunds' },
        { code: 'PAYOUT_FUNDING_TOKEN_UNSUPPORTED', when: 'the funding token is unsupported, switched off, or not among your allowed tokens' },
      ]),
      ...apiKeyRefusals([
        { code: 'PAYOUT_SANDBOX_UNSUPPORTED', when: 'a sandbox key: a refund is a payout, and payouts are live only' },
        { code: 'PAYOUTS_DISABLED', when: 'every payout method is turned off on the account' },
      ]),
      '404': failure(404, [ORDER_NOT_FOUND]),
      '409': detailedFailure(409, [
        {
          code: 'ORDER_NOT_REFUNDABLE',
          when: 'the order is not FULFILLED; responseObject is { status }',
          details: z.object({ status: orderStatus.meta({ description: 'The order’s status now' }) }),
        },
        { code: 'MERCHANT_CONFIG_MISSING', when: 'payouts are not set up on the account yet' },
        { code: 'IDEMPOTENCY_KEY_CONFLICT', when: 'the key was used with a different body, for another order, or for a payout' },
        { code: 'IDEMPOTENCY_REQUEST_IN_PROGRESS', when: 'a request with this key is still running' },
      ]),
      '422': detailedFailure(422, [
        {
          code: 'REFUND_EXCEEDS_REFUNDABLE',
          when: 'more than what settled against the order less what its pending and completed refunds hold; responseObject is { refundableAmountUsdc }',
          details: z.object({ refundableAmountUsdc: z.string().meta({ description: 'What may still be refunded, decimal USDC' }) }),
        },
        ...PAYOUT_RAIL_AND_ROUTE_REFUSALS,
      ]),
      '502': failure(502, PAYOUT_PREPARATION_FAILURES),
    },
    { body: true, asksActors: true },
  ),
  handle:
    (deps: RefundDependencies) =>
    async (ctx, { path, body }) => {
      const result = await createRefund(deps, ctx.state.account, path.orderId, body, ctx.get('idempotency-key') || undefined);
      const { created, ...answer } = { ...result, idempotentReplay: !result.created };
      if (created) reply(ctx, 201, 'Refund created', createRefundResponse, answer);
      else reply(ctx, 200, 'Refund already created for this Idempotency-Key', createRefundResponse, answer);
    },
});

const orderRefundsOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/orders/:orderId/refunds',
  operationId: 'listOrderRefunds',
  tags: ['Refunds'],
  summary: 'Every refund of one order, newest first',
  description: 'No paging; with what may still be refunded. Counts toward the merchant’s remediation reads, as the order’s payments read does.',
  guard: 'apiKey',
  request: { path: orderPath },
  before: (deps: RefundDependencies) => [deps.remediationReads],
  answers: standardAnswers({
    '200': success(200, orderRefunds, 'The order’s refunds'),
    '400': invalid('orderId is not an order id'),
    ...apiKeyRefusals(),
    '404': failure(404, [ORDER_NOT_FOUND]),
  }),
  handle:
    (deps: RefundDependencies) =>
    async (ctx, { path }) => {
      const { account } = ctx.state;
      const doc = await deps.system
        .views(orderKind)
        .findOne({ _id: path.orderId, 'view.merchantId': account.merchantId, 'view.environment': account.environment });
      if (!doc) throw orderNotFound();
      // An order last written before refunds existed has none in its stored view: its view as today's kind gives it.
      const { refunds, refundableAmountUsdc } = currentOrderView(doc);
      reply(ctx, 200, 'Refunds of the order', orderRefunds, { refunds, refundableAmountUsdc });
    },
});

export function refundOperations(): Operation<RefundDependencies>[] {
  return [createRefundOperation, orderRefundsOperation];
}
