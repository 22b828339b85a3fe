/**
 * The orders area of document 1: create, the merchant's list and the hosted read.
 * Each operation is the one place its route and its documented operation come from
 * (gateway/operations/); the handlers they call are beside them in this folder.
 */
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import { reply, respond, sendRendered } from '../envelope.js';
import { failure, invalid, standardAnswers, success } from '../openapi/answers.js';
import { apiKeyRefusals, merchantRefusals } from '../openapi/security.js';
import { TEST_CLOCK_NOT_FOUND } from '../test-clocks/test-clock-operations.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { V0_CREATE_ORDER_FIELDS } from '../schemas/retired-fields.js';
import { type CreateOrderDependencies, createOrder } from './create-order.js';
import type { HostedOrders } from './hosted-orders.js';
import { listOrders } from './order-list.js';
import { createOrderResult, hostedOrder, merchantOrderList } from './order-resources.js';
import { createOrderBody, listOrdersQuery, orderPath } from './order-schemas.js';

export interface OrderDependencies extends CreateOrderDependencies {
  system: ActorSystem;
  hostedOrders: HostedOrders;
  /** Where a list's total stops counting (paged-views.ts). */
  totalCap: number;
}

/** `orderMaxUsdc`: the node's largest order as a decimal string, which the create operation's description states. */
export function orderOperations(settings: { orderMaxUsdc: string }): Operation<OrderDependencies>[] {
  return [createOrderOperation(settings.orderMaxUsdc), listOrdersOperation, hostedOrderOperation];
}

function createOrderOperation(orderMaxUsdc: string) {
  return defineOperation({
    method: 'post',
    path: '/api/v1/orders',
    operationId: 'createOrder',
    tags: ['Orders'],
    summary: 'Create an order',
    description: [
      'Exactly one amount mode. 201 with the order and its token; a replay of an idempotencyKey answers 200 with orderToken null and idempotentReplay true.',
      `An order is at most ${orderMaxUsdc} USDC on this node; a fiat price, and an open amount’s maximum or largest preset, count at today’s rate.`,
    ].join(' '),
    guard: 'apiKey',
    request: { body: createOrderBody },
    retiredFields: V0_CREATE_ORDER_FIELDS,
    answers: standardAnswers(
      {
        '201': success(201, createOrderResult, 'Order created, with the customer’s orderToken'),
        '200': success(200, createOrderResult, 'A replay of an idempotencyKey: the first order, orderToken null'),
        '400': invalid('the body, a field naming an unsupported chain, token or rail, or an amount over the limit', [
          { code: 'DYNAMIC_ORDERS_DISABLED', when: 'dynamicOrdersEnabled is true but the merchant configuration disables dynamic orders' },
          { code: 'OPEN_AMOUNT_DISABLED', when: 'openAmount on an order whose dynamic orders are disabled' },
          {
            code: 'OPEN_AMOUNT_INVALID',
            when: 'openAmount breaks its rules (currency, bounds, presets), has no rate, or exceeds the order limit at today’s rate',
          },
          { code: 'DESTINATION_REQUIRED', when: 'no destinationAddress and no wallet of the destination chain’s kind on the merchant profile' },
          { code: 'CURRENCY_NOT_SUPPORTED', when: 'no exchange rate exists for the fiat currency' },
        ]),
        ...apiKeyRefusals([
          { code: 'TIER_REQUIRED', when: 'a live merchant without a plan' },
          { code: 'TEST_CLOCK_SANDBOX_ONLY', when: 'testClockId with a live key' },
        ]),
        '404': failure(404, [TEST_CLOCK_NOT_FOUND]),
        '422': failure(422, [{ code: 'IDEMPOTENCY_KEY_MISMATCH', when: 'the idempotencyKey was used for a request that means something else' }]),
      },
      {
        body: true,
        asksActors: true,
        unavailable: [{ code: 'RATE_UNAVAILABLE', when: 'the exchange rate for a fiat price is stale and the rate source cannot be reached; retry shortly' }],
      },
    ),
    handle:
      (deps: OrderDependencies) =>
      async (ctx, { body }) => {
        const result = await createOrder(deps, ctx.state.account, body);
        if (result.created) reply(ctx, 201, 'Order created', createOrderResult, { order: result.order, orderToken: result.orderToken });
        else
          reply(ctx, 200, 'Order already created for this idempotencyKey', createOrderResult, {
            order: result.order,
            orderToken: null,
            idempotentReplay: true,
          });
      },
  });
}

const listOrdersOperation = defineOperation({
  method: 'get',
  path: '/api/v1/merchants/me/orders',
  operationId: 'listOrders',
  tags: ['Orders'],
  summary: 'List or find orders, newest first',
  description: 'search matches the order id, notes and metadata (at least 3 characters, case-insensitive); orderId matches part of an id.',
  guard: 'merchant',
  request: { query: listOrdersQuery },
  answers: standardAnswers({
    '200': success(200, merchantOrderList, 'A page of orders and the total'),
    '400': invalid('the query'),
    ...merchantRefusals(false),
  }),
  handle:
    (deps: OrderDependencies) =>
    async (ctx, { query }) => {
      reply(ctx, 200, 'Orders', merchantOrderList, await listOrders(deps.system, ctx.state.account, query, deps.totalCap));
    },
});

const hostedOrderOperation = defineOperation({
  method: 'get',
  path: '/api/v1/orders/:orderId',
  operationId: 'getHostedOrder',
  tags: ['Orders'],
  summary: 'Hosted order read',
  description: 'No API key: the order id is the credential. What the hosted checkout page shows.',
  guard: 'none',
  request: { path: orderPath },
  answers: standardAnswers({
    '200': success(200, hostedOrder, 'The hosted order'),
    '400': invalid('orderId is not an order id'),
    '404': failure(404, [{ code: 'NOT_FOUND', when: 'no order has that id, in any environment' }]),
  }),
  handle:
    (deps: OrderDependencies) =>
    async (ctx, { path }) => {
      const answer = await deps.hostedOrders.answer(path.orderId);
      if (!answer) return respond(ctx, 404, 'Order not found', null, 'NOT_FOUND');
      sendRendered(ctx, answer);
    },
});
