/**
 * GET /metrics: the node's metrics in Prometheus' text format, for a scraper. The router
 * carries no guard of its own: app.ts mounts it only behind the admin token's guarded
 * area (middleware/guarded-area.ts), and only when a token is configured; the separate
 * METRICS_PORT server (deploy/metrics-server.ts) serves the same router without one.
 *
 * A successful answer is the exposition text, not the envelope, because that is what
 * Prometheus reads; every failure (401, 404, 405, 500) is the envelope as anywhere else.
 */
import type Router from '@koa/router';
import { exactRouter } from '../routing.js';
import type { GatewayState } from '../state.js';

export const METRICS_PATH = '/metrics';

/** Where the text comes from: PrometheusMetrics (actors/metrics), or anything shaped like it. */
export interface MetricsSource {
  /** The media type of the text, such as `text/plain; version=0.0.4; charset=utf-8`. */
  readonly contentType: string;
  metrics(): Promise<string>;
}

export function metricsRoutes(source: MetricsSource): Router<GatewayState> {
  const router = exactRouter();
  router.get(METRICS_PATH, async (ctx) => {
    const text = await source.metrics();
    ctx.set('cache-control', 'no-store');
    ctx.type = source.contentType;
    ctx.body = text;
  });
  return router;
}
