/** Operations about the node itself: health, metrics and this description. */
import { z } from 'zod';
import { healthReport } from '../schemas/health-schemas.js';
import { standardAnswers, success } from './answers.js';
import { ADMIN_TOKEN, NO_AUTH, adminRefusal } from './security.js';

export function healthPaths() {
  return {
    '/v1/health-check': {
      get: {
        operationId: 'getHealth',
        tags: ['Service'],
        summary: 'Health report (document 3)',
        security: NO_AUTH,
        responses: standardAnswers({ '200': success(200, healthReport, 'The health report; a degraded or unhealthy node still answers 200') }),
      },
    },
  };
}

/** GET /metrics, documented exactly when the gateway is given metrics to serve. */
export function metricsPaths() {
  return {
    '/metrics': {
      get: {
        operationId: 'getMetrics',
        tags: ['Metrics'],
        summary: 'Metrics in Prometheus text format',
        description: [
          'For a Prometheus scraper: asks, turns, conflicts, effects, timers, shard leases, store calls and Node’s own metrics (docs/metrics.md).',
          'A success is the exposition text itself, not the envelope; a failure is the envelope.',
          'A node started with METRICS_PORT also serves it there, without a token, for a private scrape network.',
        ].join(' '),
        security: ADMIN_TOKEN,
        responses: standardAnswers({
          '200': { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
          ...adminRefusal,
        }),
      },
    },
  };
}

export function descriptionPaths() {
  return {
    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['Service'],
        summary: 'This document',
        description: 'The one JSON answer not wrapped in the envelope, so OpenAPI tools can read it.',
        security: NO_AUTH,
        responses: standardAnswers({ '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } }),
      },
    },
    '/docs': {
      get: {
        operationId: 'getReferencePage',
        tags: ['Service'],
        summary: 'This document as a readable page',
        security: NO_AUTH,
        responses: standardAnswers({ '200': { description: 'HTML', content: { 'text/html': { schema: z.string() } } } }),
      },
    },
    '/docs/redoc.standalone.js': {
      get: {
        operationId: 'getRedocBundle',
        tags: ['Service'],
        summary: 'The Redoc bundle the readable page runs',
        description:
          'Redoc’s standalone JavaScript, served by the node so the page loads nothing from another origin; not the envelope. The page asks for it under its content hash (`?v=`), so it is cached for a year.',
        security: NO_AUTH,
        responses: standardAnswers({ '200': { description: 'JavaScript', content: { 'text/javascript': { schema: z.string() } } } }),
      },
    },
  };
}
