/**
 * actors/metrics/: what the runtime reports about itself. The runtime calls one small
 * interface (RuntimeMetrics: asks, turns, conflicts, effects, timers, leases, store
 * calls, and gauges read at scrape time); `noMetrics` ignores it, PrometheusMetrics turns
 * it into Prometheus series on a registry of its own, and instrumentStore times every
 * store call. Serving the text is the gateway's `GET /metrics` (behind the admin token)
 * or deploy/metrics-server.ts (METRICS_PORT). docs/metrics.md lists every series.
 */
export { noMetrics } from './runtime-metrics.js';
export type { AskOutcome, EffectOutcome, RuntimeMetrics, TurnOutcome } from './runtime-metrics.js';
export { PrometheusMetrics } from './prometheus-metrics.js';
export type { PrometheusMetricsOptions } from './prometheus-metrics.js';
export { instrumentStore } from './instrumented-store.js';
