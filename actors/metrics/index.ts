/**
 * actors/metrics/: what a node reports about itself. The runtime calls one small
 * interface (RuntimeMetrics: asks, turns, conflicts, effects, timers, leases, store
 * calls, and gauges read at scrape time); the node's other sides call NodeMetrics beside
 * it (gateway requests, webhook attempts, relayer receipts, attestation calls). `noMetrics`
 * ignores it all, PrometheusMetrics turns it into Prometheus series on a registry of its
 * own, and instrumentStore times every store call. Serving the text is the gateway's
 * `GET /metrics` (behind the admin token) or deploy/metrics-server.ts (METRICS_PORT).
 * docs/metrics.md lists every series; deploy/observability/ charts and alerts on them.
 */
export { noMetrics } from './node-metrics.js';
export type { AttestationMethod, NodeMetrics, WebhookAttemptOutcome } from './node-metrics.js';
export type {
  AskOutcome,
  EffectOutcome,
  ObservedGauges,
  RelayerWalletReading,
  RuntimeMetrics,
  TurnOutcome,
  WebhookFailingReason,
} from './runtime-metrics.js';
export { PrometheusMetrics } from './prometheus-metrics.js';
export type { PrometheusMetricsOptions } from './prometheus-metrics.js';
export { instrumentStore } from './instrumented-store.js';
