/**
 * The merchant's payment operations of document 1 (API key): the payment list across
 * orders, one order's attempts (120 reads a minute per merchant, document 1's
 * remediation-read limit), and quote availability before an order is made.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { reply } from '../envelope.js';
import type { Middleware } from 'koa';
import type { GatewayState } from '../state.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { apiKeyRefusals, merchantRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { orderPath } from '../orders/order-schemas.js';
import { listPayments, orderPayments } from './payment-list.js';
import { merchantPaymentList, orderPayments as orderPaymentsResource, quoteAvailability as quoteAvailabilityResource } from './payment-resources.js';
import { listPaymentsQuery, quoteAvailabilityBody } from './payment-schemas.js';
import { type AvailabilityDependencies, quoteAvailability } from './quote-availability.js';

export interface PaymentDependencies extends AvailabilityDependencies {
  system: ActorSystem;
  /** Document 1's remediation reads: one budget per merchant, shared with the action poll. */
  remediationReads: Middleware<GatewayState>;
  /** Where a list's total stops counting (paged-views.ts). */
  totalCap: number;
}

/** document 1, Limits: remediation reads. */
export const REMEDIATION_READS_PER_MINUTE = 120;

const listPaymentsOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/payments',
  operationId: 'listPayments',
  tags: ['Payments'],
  summary: 'List payment attempts across orders, newest first',
  description: 'A key sees its own environment only. rail, orderId and the created-at bounds are filters beyond document 1’s.',
  guard: 'merchant',
  request: { query: listPaymentsQuery },
  answers: standardAnswers({
    '200': success(200, merchantPaymentList, 'A page of payments and the total'),
    '400': invalid('the query'),
    ...merchantRefusals(false),
  }),
  handle:
    (deps: PaymentDependencies) =>
    async (ctx, { query }) => {
      reply(ctx, 200, 'Payments', merchantPaymentList, await listPayments(deps.system, ctx.state.account, query, deps.totalCap));
    },
});

const orderPaymentsOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/orders/:orderId/payments',
  operationId: 'listOrderPayments',
  tags: ['Payments'],
  summary: 'Every attempt of one order, newest first',
  description: 'No paging. Counts toward the merchant’s remediation reads: 120 a minute per merchant with the action polls, whatever the client address.',
  guard: 'merchant',
  request: { path: orderPath },
  before: (deps: PaymentDependencies) => [deps.remediationReads],
  answers: standardAnswers({
    '200': success(200, orderPaymentsResource, 'The order’s attempts'),
    '400': invalid('orderId is not an order id'),
    ...merchantRefusals(false),
    '404': failure(404, [{ code: 'NOT_FOUND', when: 'the order does not exist, is another merchant’s, or lives in the other environment' }]),
  }),
  handle:
    (deps: PaymentDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Payments of the order', orderPaymentsResource, await orderPayments(deps.system, ctx.state.account, path.orderId));
    },
});

const quoteAvailabilityOperation = defineOperation({
  method: 'post',
  path: '/api/v1/merchants/me/quotes/availability',
  operationId: 'checkQuoteAvailability',
  tags: ['Payments'],
  summary: 'Can a customer pay this amount now?',
  description:
    'Counts the offers (a maker’s deposit on a rail asked, a Zelle bank each) that can take the intent the amount needs, fees included as the merchant’s fee payer prices it. When none can, suggests the nearest amounts some can take, in the unit asked.',
  guard: 'apiKey',
  request: { body: quoteAvailabilityBody },
  answers: standardAnswers(
    {
      '200': success(200, quoteAvailabilityResource, 'Whether the amount is available, and what is near it'),
      '400': invalid('the body, or a destination field naming an unsupported chain or token', [
        { code: 'DESTINATION_REQUIRED', when: 'no destinationAddress and no wallet of the destination chain’s kind on the merchant profile' },
      ]),
      ...apiKeyRefusals(),
      '422': failure(422, [{ code: 'CURRENCY_NOT_SUPPORTED', when: 'EXACT_FIAT in a currency no exchange rate prices now' }]),
    },
    { body: true, unavailable: [{ code: 'RATE_UNAVAILABLE', when: 'the rate is stale and its source cannot be reached' }] },
  ),
  handle:
    (deps: PaymentDependencies) =>
    async (ctx, { body }) => {
      reply(ctx, 200, 'Quote availability', quoteAvailabilityResource, await quoteAvailability(deps, ctx.state.account, body));
    },
});

export function paymentOperations(): Operation<PaymentDependencies>[] {
  return [listPaymentsOperation, orderPaymentsOperation, quoteAvailabilityOperation];
}
