/** Document 1's order operations: create, the merchant's list and the hosted read. */
import { createOrderBody, listOrdersQuery, orderPath } from '../schemas/order-schemas.js';
import { createOrderResult, hostedOrder, merchantOrderList } from '../schemas/order-resources.js';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { TEST_CLOCK_NOT_FOUND } from './test-clock-paths.js';
import { API_KEY, NO_AUTH, apiKeyRefusals } from './security.js';

export function orderPaths(options: { orderMaxUsdc: string }) {
  return {
    '/api/v1/orders': {
      post: {
        operationId: 'createOrder',
        tags: ['Orders'],
        summary: 'Create an order',
        description: [
          'Exactly one amount mode. 201 with the order and its token; a replay of an idempotencyKey answers 200 with orderToken null and idempotentReplay true.',
          `An order is at most ${options.orderMaxUsdc} USDC on this node; a fiat price, and an open amount’s maximum or largest preset, count at today’s rate.`,
        ].join(' '),
        security: API_KEY,
        requestBody: { required: true, content: { 'application/json': { schema: createOrderBody } } },
        responses: standardAnswers(
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
            unavailable: [
              { code: 'RATE_UNAVAILABLE', when: 'the exchange rate for a fiat price is stale and the rate source cannot be reached; retry shortly' },
            ],
          },
        ),
      },
    },
    '/api/v1/merchants/me/orders': {
      get: {
        operationId: 'listOrders',
        tags: ['Orders'],
        summary: 'List or find orders, newest first',
        description: 'search matches the order id, notes and metadata (at least 3 characters, case-insensitive); orderId matches part of an id.',
        security: API_KEY,
        requestParams: { query: listOrdersQuery },
        responses: standardAnswers({
          '200': success(200, merchantOrderList, 'A page of orders and the total'),
          '400': invalid('the query'),
          ...apiKeyRefusals(),
        }),
      },
    },
    '/api/v1/orders/{orderId}': {
      get: {
        operationId: 'getHostedOrder',
        tags: ['Orders'],
        summary: 'Hosted order read',
        description: 'No API key: the order id is the credential. What the hosted checkout page shows.',
        security: NO_AUTH,
        requestParams: { path: orderPath },
        responses: standardAnswers({
          '200': success(200, hostedOrder, 'The hosted order'),
          '400': invalid('orderId is not an order id'),
          '404': failure(404, [{ code: 'NOT_FOUND', when: 'no order has that id, in any environment' }]),
        }),
      },
    },
  };
}
