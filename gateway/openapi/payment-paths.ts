/** Document 1's merchant payment operations: the payment list, one order's attempts, and quote availability. */
import { orderPath } from '../orders/order-schemas.js';
import { listPaymentsQuery, quoteAvailabilityBody } from '../schemas/payment-schemas.js';
import { merchantPaymentList, orderPayments, quoteAvailability } from '../schemas/payment-resources.js';
import { failure, invalid, standardAnswers, success } from './answers.js';
import { API_KEY, apiKeyRefusals } from './security.js';

export function paymentPaths() {
  return {
    '/api/v1/merchants/me/payments': {
      get: {
        operationId: 'listPayments',
        tags: ['Payments'],
        summary: 'List payment attempts across orders, newest first',
        description: 'A key sees its own environment only. rail, orderId and the created-at bounds are filters beyond document 1’s.',
        security: API_KEY,
        requestParams: { query: listPaymentsQuery },
        responses: standardAnswers({
          '200': success(200, merchantPaymentList, 'A page of payments and the total'),
          '400': invalid('the query'),
          ...apiKeyRefusals(),
        }),
      },
    },
    '/api/v1/merchants/me/orders/{orderId}/payments': {
      get: {
        operationId: 'listOrderPayments',
        tags: ['Payments'],
        summary: 'Every attempt of one order, newest first',
        description: 'No paging. Counts toward the merchant’s remediation reads: 120 a minute per merchant, whatever the client address.',
        security: API_KEY,
        requestParams: { path: orderPath },
        responses: standardAnswers({
          '200': success(200, orderPayments, 'The order’s attempts'),
          '400': invalid('orderId is not an order id'),
          ...apiKeyRefusals(),
          '404': failure(404, [{ code: 'NOT_FOUND', when: 'the order does not exist, is another merchant’s, or lives in the other environment' }]),
        }),
      },
    },
    '/api/v1/merchants/me/quotes/availability': {
      post: {
        operationId: 'checkQuoteAvailability',
        tags: ['Payments'],
        summary: 'Can a customer pay this amount now?',
        description:
          'Counts the offers (a maker’s deposit on a rail asked, a Zelle bank each) that can take the intent the amount needs, fees included as the merchant’s fee payer prices it. When none can, suggests the nearest amounts some can take, in the unit asked.',
        security: API_KEY,
        requestBody: { required: true, content: { 'application/json': { schema: quoteAvailabilityBody } } },
        responses: standardAnswers(
          {
            '200': success(200, quoteAvailability, 'Whether the amount is available, and what is near it'),
            '400': invalid('the body, or a destination field naming an unsupported chain or token', [
              { code: 'DESTINATION_REQUIRED', when: 'no destinationAddress and no wallet of the destination chain’s kind on the merchant profile' },
            ]),
            ...apiKeyRefusals(),
            '422': failure(422, [{ code: 'CURRENCY_NOT_SUPPORTED', when: 'EXACT_FIAT in a currency no exchange rate prices now' }]),
          },
          { body: true, unavailable: [{ code: 'RATE_UNAVAILABLE', when: 'the rate is stale and its source cannot be reached' }] },
        ),
      },
    },
  };
}
