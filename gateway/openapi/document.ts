/**
 * The OpenAPI 3.1 document, generated from the same zod schemas the routes validate
 * with, so the description cannot drift from what the gateway enforces.
 */
import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { envelopeOf, failureEnvelope, validationFailure } from '../schemas/envelope-schemas.js';
import { deadLetterList, deadLetterPath, deadLetterView, discardDeadLetterBody, listDeadLettersQuery } from '../schemas/dead-letter-schemas.js';
import { createMerchantBody, merchantPath, merchantProfile, updateMerchantBody } from '../schemas/merchant-schemas.js';
import { createOrderBody, createOrderResponse, hostedOrder, listOrdersQuery, merchantOrderList, orderPath } from '../schemas/order-schemas.js';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const failure = (description: string) => json(failureEnvelope, description);
const apiKey = [{ apiKey: [] }];
const admin = [{ adminToken: [] }];
const unauthorized = failure('Missing or invalid admin token');
const rateLimited = failure("Too many requests: 1200 a minute per source IP (x-retry-after, x-rate-limit-remaining, x-rate-limiter-resets-at)");

/**
 * The admin API's dead-letter operations, documented exactly when they are served: on a
 * gateway given a dead-letter store.
 */
function deadLetterPaths() {
  const notFound = failure('DEAD_LETTER_NOT_FOUND: no dead letter has that id');
  return {
    '/internal/v1/dead-letters': {
      get: {
        summary: 'List dead letters, newest first',
        description: 'Work that failed past its retry policy (effects, timers, bus deliveries) or that its target refused. Pages follow nextStartingAfter.',
        security: admin,
        requestParams: { query: listDeadLettersQuery },
        responses: {
          '200': json(envelopeOf(deadLetterList), 'A page of dead letters, and how many are open'),
          '400': json(validationFailure, 'Invalid request (no errorCode)'),
          '401': unauthorized,
          '404': failure('DEAD_LETTER_NOT_FOUND: startingAfter names no dead letter'),
        },
      },
    },
    '/internal/v1/dead-letters/{deadLetterId}': {
      get: {
        summary: 'Read a dead letter',
        security: admin,
        requestParams: { path: deadLetterPath },
        responses: {
          '200': json(envelopeOf(deadLetterView), 'The dead letter'),
          '400': json(validationFailure, 'deadLetterId is not a dead letter id'),
          '401': unauthorized,
          '404': notFound,
        },
      },
    },
    '/internal/v1/dead-letters/{deadLetterId}/retry': {
      post: {
        summary: 'Put an open dead letter’s work back where it came from',
        description: 'The work gets a fresh retry budget; a bus delivery is handed to the live consumer at once. If its source cannot take it back, the letter stays open.',
        security: admin,
        requestParams: { path: deadLetterPath },
        responses: {
          '200': json(envelopeOf(deadLetterView), 'Retried: the letter, now RETRIED'),
          '400': json(validationFailure, 'deadLetterId is not a dead letter id'),
          '401': unauthorized,
          '404': notFound,
          '409': failure('DEAD_LETTER_NOT_OPEN; DEAD_LETTER_NOT_RETRYABLE (no retrier for its source on this node, or work that cannot run again); CONSUMER_NOT_RUNNING (no consumer of that name on this node)'),
          '422': failure('DEAD_LETTER_RETRY_FAILED: the work failed again; the letter stays open'),
        },
      },
    },
    '/internal/v1/dead-letters/{deadLetterId}/discard': {
      post: {
        summary: 'Close an open dead letter without running its work again',
        security: admin,
        requestParams: { path: deadLetterPath },
        requestBody: { content: { 'application/json': { schema: discardDeadLetterBody } } },
        responses: {
          '200': json(envelopeOf(deadLetterView), 'Discarded: the letter, now DISCARDED, with the reason'),
          '400': json(validationFailure, 'Invalid request, or deadLetterId is not a dead letter id'),
          '401': unauthorized,
          '404': notFound,
          '409': failure('DEAD_LETTER_NOT_OPEN'),
        },
      },
    },
  };
}

/** GET /metrics, documented exactly when the gateway is given metrics to serve. */
function metricsPaths() {
  return {
    '/metrics': {
      get: {
        summary: 'Metrics in Prometheus text format',
        description: [
          'For a Prometheus scraper: asks, turns, conflicts, effects, timers, shard leases, store calls and Node’s own metrics (docs/metrics.md).',
          'A success is the exposition text itself, not the envelope; a failure is the envelope.',
          'A node started with METRICS_PORT also serves it there, without a token, for a private scrape network.',
        ].join(' '),
        security: admin,
        responses: {
          '200': { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
          '401': unauthorized,
        },
      },
    },
  };
}

export function openApiDocument(version: string, options: { orderMaxUsdc: string; deadLetters?: boolean; metrics?: boolean }) {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Peer platform API',
      version,
      description: [
        'Merchant checkout API (document 1). Every response uses the envelope { success, message, responseObject, statusCode, errorCode? }.',
        'Paths match exactly: letter case, trailing slashes and empty segments make another path. An unknown path is 404 NOT_FOUND;',
        'a known path with another method is 405 METHOD_NOT_ALLOWED with Allow; OPTIONS answers the allowed methods;',
        'a method outside HTTP’s standard set is 501 NOT_IMPLEMENTED. No cross-origin (CORS) access is granted.',
      ].join(' '),
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
          description: [
            'Exactly one amount mode. 201 with the order and its token; a replay of an idempotencyKey answers 200 with orderToken null and idempotentReplay true.',
            `An order is at most ${options.orderMaxUsdc} USDC on this node; a fiat price, and an open amount’s maximum or largest preset, count at today’s rate.`,
          ].join(' '),
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
          requestParams: { path: orderPath },
          responses: {
            '200': json(envelopeOf(hostedOrder), 'The hosted order'),
            '400': json(validationFailure, 'orderId is not an order id'),
            '404': failure('No order has that id'),
            '429': rateLimited,
          },
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
            '401': unauthorized,
          },
        },
      },
      '/internal/v1/merchants/{merchantId}': {
        patch: {
          summary: "Change a merchant account's settings",
          security: admin,
          requestParams: { path: merchantPath },
          requestBody: { content: { 'application/json': { schema: updateMerchantBody } } },
          responses: {
            '200': json(envelopeOf(merchantProfile), 'Updated'),
            '400': json(validationFailure, 'Invalid request, or merchantId is not a merchant id'),
            '401': unauthorized,
            '404': failure('No such merchant'),
          },
        },
      },
      '/internal/v1/merchants/{merchantId}/api-keys/rotate': {
        post: {
          summary: 'Issue a new API key; the old one stops working',
          security: admin,
          requestParams: { path: merchantPath },
          responses: {
            '200': json(envelopeOf(z.object({ merchant: merchantProfile, apiKey: z.string() })), 'Rotated'),
            '400': json(validationFailure, 'merchantId is not a merchant id'),
            '401': unauthorized,
            '404': failure('No such merchant'),
          },
        },
      },
      ...(options.deadLetters ? deadLetterPaths() : {}),
      ...(options.metrics ? metricsPaths() : {}),
      '/v1/health-check': {
        get: { summary: 'Health report (document 3)', responses: { '200': json(envelopeOf(z.record(z.string(), z.unknown())), 'The health report') } },
      },
      '/api/v1/openapi.json': {
        get: {
          summary: 'This document',
          description: 'The one answer not wrapped in the envelope, so OpenAPI tools can read it.',
          responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
        },
      },
      '/docs': {
        get: { summary: 'This document as a readable page', responses: { '200': { description: 'HTML', content: { 'text/html': { schema: z.string() } } } } },
      },
    },
  });
}
