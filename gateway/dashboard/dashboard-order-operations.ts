/**
 * Document 1's two session-only merchant routes: read an order with its attempts, and cancel
 * an order from the dashboard. An API key is refused both (403 API_KEY_NOT_ALLOWED); a
 * cashier may read but not cancel (403 ROLE_NOT_ALLOWED). The order is looked for in the
 * session's environment only; another merchant's, or the other environment's, is 404.
 */
import { z } from 'zod';
import { reply } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { sessionRefusals } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { orderPath } from '../orders/order-schemas.js';
import { checkoutOrder } from '../orders/order-resources.js';
import { checkoutPayment } from '../payments/payment-resources.js';
import { audited } from './audit-log.js';
import type { DashboardDependencies } from './dashboard-dependencies.js';
import { cancelOrder, orderWithPayments } from './dashboard-orders.js';

const tags = ['Dashboard'];
const notFound = failure(404, [{ code: 'NOT_FOUND', when: 'the order does not exist, is another merchant’s, or lives in the session’s other environment' }]);

export const orderDetail = z
  .object({
    order: checkoutOrder,
    payments: z.array(checkoutPayment).meta({ description: 'Every attempt of the order, newest first' }),
  })
  .meta({ id: 'DashboardOrder', description: 'An order with every attempt, as the dashboard shows it' });

const readOrderOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/orders/:orderId',
  operationId: 'getMerchantOrder',
  tags,
  summary: 'An order with its attempts (dashboard session)',
  description: 'Not available to an API key (document 1). Any role may read it.',
  guard: 'session',
  request: { path: orderPath },
  answers: standardAnswers({
    '200': success(200, orderDetail, 'The order and its attempts'),
    '400': invalid('orderId is not an order id'),
    ...sessionRefusals(false),
    '404': notFound,
  }),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Order', orderDetail, await orderWithPayments(deps.system, ctx.state.account, path.orderId));
    },
});

const cancelOrderOperation = defineOperation({
  method: 'post',
  path: '/api/v1/merchants/me/orders/:orderId/cancel',
  operationId: 'cancelMerchantOrder',
  tags,
  summary: 'Cancel an order (dashboard session, Owner or Manager)',
  description:
    'A CREATED or PARTIALLY_FULFILLED order becomes CANCELLED with cancelledAt, and ORDER_CANCELLED is sent. Its open attempt is cancelled first (PAYMENT_CANCELLED; a live attempt’s intent is released on chain). Not available to an API key (document 1); a cashier is refused.',
  guard: 'session',
  roles: ['OWNER', 'MANAGER'],
  request: { path: orderPath },
  before: (deps: DashboardDependencies) => [audited(deps.audit, 'cancelMerchantOrder')],
  answers: standardAnswers(
    {
      '200': success(200, orderDetail, 'The cancelled order and its attempts'),
      '400': invalid('orderId is not an order id'),
      ...sessionRefusals(true, [{ code: 'ROLE_NOT_ALLOWED', when: 'the signed-in member is a cashier' }]),
      '404': notFound,
      '409': failure(409, [
        { code: 'ORDER_STATUS_NOT_ELIGIBLE', when: 'the order is FULFILLED or CANCELLED already' },
        { code: 'PAYMENT_NOT_CANCELLABLE', when: 'an attempt has a proof being verified or settled, or its transfer is being converted; the order stays open' },
      ]),
    },
    { asksActors: true },
  ),
  handle:
    (deps: DashboardDependencies) =>
    async (ctx, { path }) => {
      reply(ctx, 200, 'Order cancelled', orderDetail, await cancelOrder(deps.system, ctx.state.account, path.orderId, deps.now()));
    },
});

export function dashboardOrderOperations(): Operation<DashboardDependencies>[] {
  return [readOrderOperation, cancelOrderOperation];
}
