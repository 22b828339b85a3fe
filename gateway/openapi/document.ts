/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate
 * with, so the description cannot drift from what the gateway enforces.
 */
import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { envelopeOf, failureEnvelope, validationFailure } from '../schemas/envelope-schemas.js';
import { createMerchantBody, merchantProfile, updateMerchantBody } from '../schemas/merchant-schemas.js';
import { createOrderBody, createOrderResponse, hostedOrder, listOrdersQuery, merchantOrderList } from '../schemas/order-schemas.js';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const failure = (description: string) => json(failureEnvelope, description);
const apiKey = [{ apiKey: [] }];
const admin = [{ adminToken: [] }];
const rateLimited = failure("Too many requests: 1200 a minute per source IP (x-retry-after, x-rate-limit-remaining, x-rate-limiter-resets-at)");

export function openApiDocument(version: string) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Peer platform API',
      version,
      description: 'Merchant checkout API (document 1). Every response uses the envelope { success, message, responseObject, statusCode, errorCode? }.',
    },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        adminToken: { type: 'http', scheme: 'bearer' },
      },
    },
    paths: {
      '/api/v1/orders': {
        post: {
          summary: 'Create an order',
          description:
            'Exactly one amount mode. 201 with the order and its token; a replay of an idempotencyKey answers 200 with orderToken null and idempotentReplay true.',
          security: apiKey,
          requestBody: { content: { 'application/json': { schema: createOrderBody } } },
          responses: {
            '201': json(envelopeOf(createOrderResponse), 'Order created'),
            '200': json(envelopeOf(createOrderResponse), 'Replay of an idempotencyKey'),
            '400': json(validationFailure, 'Invalid request, or DYNAMIC_ORDERS_DISABLED, OPEN_AMOUNT_INVALID, OPEN_AMOUNT_DISABLED, DESTINATION_REQUIRED, CURRENCY_NOT_SUPPORTED'),
            '401': failure('Missing API key / Invalid API key'),
            '403': failure('IP_NOT_ALLOWED, or TIER_REQUIRED for a live merchant without a plan'),
            '422': failure('IDEMPOTENCY_KEY_MISMATCH: the key was used for another request'),
            '429': rateLimited,
          },
        },
      },
      '/api/v1/merchants/me': {
        get: {
          summary: 'Read the merchant profile',
          security: apiKey,
          responses: { '200': json(envelopeOf(merchantProfile), 'The profile of the key’s account'), '401': failure('Missing or invalid API key'), '429': rateLimited },
        },
      },
      '/api/v1/merchants/me/orders': {
        get: {
          summary: 'List or find orders, newest first',
          security: apiKey,
          requestParams: { query: listOrdersQuery },
          responses: {
            '200': json(envelopeOf(merchantOrderList), 'A page of orders and the total'),
            '400': json(validationFailure, 'Invalid request (no errorCode)'),
            '401': failure('Missing or invalid API key'),
            '429': rateLimited,
          },
        },
      },
      '/api/v1/orders/{orderId}': {
        get: {
          summary: 'Hosted order read',
          description: 'No API key; the order id is the credential.',
          requestParams: { path: z.object({ orderId: z.string() }) },
          responses: { '200': json(envelopeOf(hostedOrder), 'The hosted order'), '404': failure('No order has that id'), '429': rateLimited },
        },
      },
      '/internal/v1/merchants': {
        post: {
          summary: 'Create a merchant and its sandbox twin',
          description: 'The raw API keys appear only in this answer and on rotation.',
          security: admin,
          requestBody: { content: { 'application/json': { schema: createMerchantBody } } },
          responses: {
            '201': json(
              envelopeOf(z.object({ merchant: merchantProfile, sandboxMerchant: merchantProfile, liveApiKey: z.string(), sandboxApiKey: z.string() })),
              'Created',
            ),
            '400': json(validationFailure, 'Invalid request'),
            '401': failure('Missing or invalid admin token'),
          },
        },
      },
      '/internal/v1/merchants/{merchantId}': {
        patch: {
          summary: "Change a merchant account's settings",
          security: admin,
          requestParams: { path: z.object({ merchantId: z.string() }) },
          requestBody: { content: { 'application/json': { schema: updateMerchantBody } } },
          responses: { '200': json(envelopeOf(merchantProfile), 'Updated'), '400': json(validationFailure, 'Invalid request'), '404': failure('No such merchant') },
        },
      },
      '/internal/v1/merchants/{merchantId}/api-keys/rotate': {
        post: {
          summary: 'Issue a new API key; the old one stops working',
          security: admin,
          requestParams: { path: z.object({ merchantId: z.string() }) },
          responses: { '200': json(envelopeOf(z.object({ merchant: merchantProfile, apiKey: z.string() })), 'Rotated'), '404': failure('No such merchant') },
        },
      },
      '/v1/health-check': {
        get: { summary: 'Health report (document 3)', responses: { '200': json(envelopeOf(z.record(z.string(), z.unknown())), 'The health report') } },
      },
    },
  });
}
