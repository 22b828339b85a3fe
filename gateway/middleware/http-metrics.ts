/**
 * Counts and times every request the gateway answers, by the route template that served
 * it (`/api/v1/orders/:orderId`), never the path as sent: a path holds ids, and every
 * distinct label value is a series Prometheus keeps. A request no route served (a 404,
 * a guard's 401 in front of an unknown path) is `unmatched`. It runs outside the error
 * envelope, so the status it records is the one the caller got.
 */
import type { Middleware } from 'koa';
import type { NodeMetrics } from '../../actors/metrics/node-metrics.js';

export const UNMATCHED_ROUTE = 'unmatched';

export function httpMetrics(metrics: Pick<NodeMetrics, 'httpRequest'>): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // @koa/router names the matched layer's template here; only a route, not a router's middleware, sets it.
      const route = (ctx as { _matchedRoute?: unknown })._matchedRoute;
      metrics.httpRequest(typeof route === 'string' ? route : UNMATCHED_ROUTE, ctx.method, ctx.status, (performance.now() - started) / 1000);
    }
  };
}
