/**
 * GET /metrics: the node's metrics in Prometheus' text format, for a scraper. The route
 * carries no guard of its own: app.ts mounts it only behind the admin token's guarded
 * area (middleware/guarded-area.ts), and only when a token is configured; the separate
 * METRICS_PORT server (deploy/metrics-server.ts) serves the same router without one.
 *
 * A successful answer is the exposition text, not the envelope, because that is what
 * Prometheus reads; every failure (401, 404, 405, 500) is the envelope as anywhere else.
 */
import type Router from '@koa/router';
import { z } from 'zod';
import { standardAnswers } from '../openapi/answers.js';
import { adminRefusal } from '../openapi/security.js';
import { defineOperation } from '../operations/define.js';
import type { Operation } from '../operations/operation.js';
import { operationRouter } from '../operations/router.js';
import type { GatewayState } from '../state.js';

export const METRICS_PATH = '/metrics';

/** Where the text comes from: PrometheusMetrics (actors/metrics), or anything shaped like it. */
export interface MetricsSource {
  /** The media type of the text, such as `text/plain; version=0.0.4; charset=utf-8`. */
  readonly contentType: string;
  metrics(): Promise<string>;
}

export interface MetricsDependencies {
  source: MetricsSource;
}

/** GET /metrics, documented exactly when the gateway is given metrics to serve. */
export function metricsOperations(): Operation<MetricsDependencies>[] {
  return [metricsOperation];
}

/** The metrics route on its own router: no body and no guard of its own, so nothing to mount but the route. */
export function metricsRouter(source: MetricsSource): Router<GatewayState> {
  return operationRouter(metricsOperations(), { source }, { guards: {} });
}

const metricsOperation = defineOperation({
  method: 'get',
  path: METRICS_PATH,
  operationId: 'getMetrics',
  tags: ['Metrics'],
  summary: 'Metrics in Prometheus text format',
  description: [
    'For a Prometheus scraper: asks, turns, conflicts, effects, timers, shard leases, store calls and Node’s own metrics (docs/metrics.md).',
    'A success is the exposition text itself, not the envelope; a failure is the envelope.',
    'A node started with METRICS_PORT also serves it there, without a token, for a private scrape network.',
  ].join(' '),
  guard: 'adminToken',
  answers: standardAnswers({
    '200': { description: 'Prometheus text exposition format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
    ...adminRefusal,
  }),
  handle: (deps: MetricsDependencies) => async (ctx) => {
    const text = await deps.source.metrics();
    ctx.set('cache-control', 'no-store');
    ctx.type = deps.source.contentType;
    ctx.body = text;
  },
});
