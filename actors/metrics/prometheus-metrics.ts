/**
 * NodeMetrics as Prometheus series (prom-client), on a registry of its own: tests run
 * many nodes in one process, and prom-client's global registry would mix their series
 * and refuse the second node's metric names. Node's default metrics (CPU, memory, event
 * loop lag, GC, handles) are registered beside the runtime's.
 *
 * Names follow Prometheus' conventions: a `peer_` prefix, the unit in the name
 * (`_seconds`, `_blocks`, `_wei`), `_total` on counters. Labels are kinds, effect types,
 * collections, operations, route templates, methods, relayer wallets and outcomes only,
 * all from small fixed sets; never an actor, merchant or order id.
 * docs/metrics.md describes every series.
 */
import { getHeapStatistics } from 'node:v8';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AttestationMethod, NodeMetrics, WebhookAttemptOutcome } from './node-metrics.js';
import { OBSERVED_SERIES } from './observed-series.js';
import type { AskOutcome, EffectOutcome, ObservedGauges, RuntimeMetrics, TurnOutcome } from './runtime-metrics.js';
import { ScrapedGauges } from './scraped-gauges.js';

type StoreOperation = Parameters<RuntimeMetrics['storeOperation']>[1];

const ASK_OUTCOMES: readonly AskOutcome[] = ['ok', 'rejected', 'unknown_actor', 'timeout', 'unavailable', 'error'];
const TURN_OUTCOMES: readonly TurnOutcome[] = ['applied', 'replayed', 'rejected', 'error'];
const EFFECT_OUTCOMES: readonly EffectOutcome[] = ['ok', 'retry', 'dead_lettered'];
const WEBHOOK_OUTCOMES: readonly WebhookAttemptOutcome[] = [
  'ok',
  'http_error',
  'timeout',
  'connection_failed',
  'destination_forbidden',
  'invalid_url',
  'tls_error',
  'endpoint_inactive',
];
const ATTESTATION_METHODS: readonly AttestationMethod[] = [
  'getAttestationDocument',
  'verifyPayment',
  'verifyPaymentProof',
  'resolveSellerPayment',
  'registerIdentity',
  'verifyDispute',
  'listSellerCredentials',
];
/** Methods a request label keeps as sent; any other (a made-up verb) is `OTHER`, so a caller cannot make new series. */
const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Asks: an embedded ask answers in well under a millisecond, one over NATS in a few, and a
 * slow one runs up to ASK_TIMEOUT_MS (10 s by default; a timed-out ask lands in the last
 * buckets or +Inf).
 */
const ASK_BUCKETS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Gateway requests: a health check answers in a millisecond, a payment's quote in tens, a slow ask up to ASK_TIMEOUT_MS. */
const HTTP_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Webhook attempts: a receiver answers in tens of milliseconds; WEBHOOK_TIMEOUT_MS (10 s by default) cuts off the rest. */
const WEBHOOK_BUCKETS: readonly number[] = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Attestation calls: a document in milliseconds, a payment read out to the platform in seconds (ENCLAVE_DEADLINE_MS is 15 s). */
const ATTESTATION_BUCKETS: readonly number[] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30];

/** Gas prices in gwei: an L2 such as Base pays hundredths of a gwei, mainnet tens to hundreds. */
const GAS_PRICE_BUCKETS: readonly number[] = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500];

/** Store calls: tens of microseconds embedded, a few milliseconds to MongoDB with a majority write concern. */
const STORE_BUCKETS: readonly number[] = [0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * Timer lateness: a timer is found by a poll every TIMER_POLL_MS (1 s by default), so up
 * to a second is normal; minutes mean a node was down or its shards were moving.
 */
const LATENESS_BUCKETS: readonly number[] = [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600];

/** How long a scrape waits for a gauge read from the store before reporting it unknown. */
const GAUGE_READ_TIMEOUT_MS = 2_000;

export interface PrometheusMetricsOptions {
  /** Node's default metrics (process_*, nodejs_*); on unless false. */
  defaultMetrics?: boolean;
  /** Labels on every series, such as `{ node: NODE_ID }`; none by default, as Prometheus' own target labels usually name the node. */
  labels?: Record<string, string>;
  /** How long a scrape waits for each gauge callback; 2 s by default. */
  gaugeReadTimeoutMs?: number;
}

export class PrometheusMetrics implements NodeMetrics {
  readonly registry = new Registry();
  /** The media type of `metrics()`: Prometheus' text exposition format 0.0.4. */
  readonly contentType: string = this.registry.contentType;

  readonly #asks: Counter<'kind' | 'outcome'>;
  readonly #askDuration: Histogram<'kind' | 'outcome'>;
  readonly #turns: Counter<'kind' | 'outcome'>;
  readonly #conflicts: Counter<'kind'>;
  readonly #effects: Counter<'kind' | 'type' | 'outcome'>;
  readonly #timersFired: Counter<'kind'>;
  readonly #timerLateness: Histogram<'kind'>;
  readonly #storeDuration: Histogram<'collection' | 'operation'>;
  readonly #leaseRenewFailures: Counter<never>;
  readonly #shardsHeld: Gauge<never>;
  readonly #shardCount: Gauge<never>;
  readonly #httpRequests: Counter<'route' | 'method' | 'status_class'>;
  readonly #httpDuration: Histogram<'route' | 'method'>;
  readonly #webhookAttempts: Counter<'outcome'>;
  readonly #webhookDuration: Histogram<never>;
  readonly #relayerReceipts: Counter<'wallet' | 'outcome'>;
  readonly #relayerGasUsed: Counter<'wallet'>;
  readonly #relayerFees: Counter<'wallet'>;
  readonly #relayerGasPrice: Histogram<never>;
  readonly #attestationCalls: Counter<'method' | 'outcome'>;
  readonly #attestationDuration: Histogram<'method'>;
  readonly #scraped: ScrapedGauges;
  /** Kinds and (kind, effect type) pairs whose counters are already at zero for every outcome. */
  readonly #seen = new Set<string>();

  constructor(options: PrometheusMetricsOptions = {}) {
    const registers = [this.registry];
    if (options.labels) this.registry.setDefaultLabels(options.labels);
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });

    this.#asks = new Counter({ name: 'peer_asks_total', help: 'Asks sent to actors, by target kind and outcome.', labelNames: ['kind', 'outcome'], registers });
    this.#askDuration = new Histogram({
      name: 'peer_ask_duration_seconds',
      help: 'Time from sending an ask to its answer or failure, retries included, by target kind and outcome.',
      labelNames: ['kind', 'outcome'],
      buckets: [...ASK_BUCKETS],
      registers,
    });
    this.#turns = new Counter({
      name: 'peer_turns_total',
      help: 'Turns run by actors on this node, by kind and outcome.',
      labelNames: ['kind', 'outcome'],
      registers,
    });
    this.#conflicts = new Counter({
      name: 'peer_turn_conflicts_total',
      help: 'Turns whose conditional write lost to another write of the same actor, and ran again, by kind.',
      labelNames: ['kind'],
      registers,
    });
    this.#effects = new Counter({
      name: 'peer_effects_total',
      help: 'Attempts at outbox effects, by actor kind, effect type and outcome (ok, retry, dead_lettered).',
      labelNames: ['kind', 'type', 'outcome'],
      registers,
    });
    this.#timersFired = new Counter({
      name: 'peer_timers_fired_total',
      help: 'Durable timers fired on this node, by actor kind.',
      labelNames: ['kind'],
      registers,
    });
    this.#timerLateness = new Histogram({
      name: 'peer_timer_lateness_seconds',
      help: 'How long after its due time a durable timer fired, by actor kind.',
      labelNames: ['kind'],
      buckets: [...LATENESS_BUCKETS],
      registers,
    });
    this.#storeDuration = new Histogram({
      name: 'peer_store_operation_duration_seconds',
      help: 'Time of one store call, successful or not, by collection and operation (insert, replace, update, delete, find, count).',
      labelNames: ['collection', 'operation'],
      buckets: [...STORE_BUCKETS],
      registers,
    });
    this.#leaseRenewFailures = new Counter({ name: 'peer_lease_renew_failures_total', help: 'Shard leases this node held but failed to renew.', registers });
    this.#shardsHeld = new Gauge({
      name: 'peer_shards_held',
      help: 'Shard leases this node holds (cluster mode; 0 when embedded, where one node serves every shard).',
      registers,
    });
    this.#shardCount = new Gauge({
      name: 'peer_shard_count',
      help: 'Shards the cluster leases out (SHARD_COUNT; cluster mode, 0 when embedded): max(peer_shard_count) - sum(peer_shards_held) is the shards no node serves.',
      registers,
    });
    this.#httpRequests = new Counter({
      name: 'peer_http_requests_total',
      help: 'Requests the gateway answered, by route template (unmatched for no route), method and status class (2xx, 4xx, ...).',
      labelNames: ['route', 'method', 'status_class'],
      registers,
    });
    this.#httpDuration = new Histogram({
      name: 'peer_http_request_duration_seconds',
      help: 'Time from a request reaching the gateway to its answer, by route template and method.',
      labelNames: ['route', 'method'],
      buckets: [...HTTP_BUCKETS],
      registers,
    });
    this.#webhookAttempts = new Counter({
      name: 'peer_webhook_attempts_total',
      help: 'Webhook delivery attempts, by outcome: ok (2xx), http_error (another status), a network failure, or endpoint_inactive.',
      labelNames: ['outcome'],
      registers,
    });
    this.#webhookDuration = new Histogram({
      name: 'peer_webhook_attempt_duration_seconds',
      help: "Time of one webhook attempt, from sending to the receiver's answer or the failure.",
      buckets: [...WEBHOOK_BUCKETS],
      registers,
    });
    this.#relayerReceipts = new Counter({
      name: 'peer_relayer_receipts_total',
      help: 'Relayer transactions found mined, by sending wallet and outcome (succeeded, reverted).',
      labelNames: ['wallet', 'outcome'],
      registers,
    });
    this.#relayerGasUsed = new Counter({
      name: 'peer_relayer_gas_used_total',
      help: 'Gas used by the relayer transactions found mined, by sending wallet.',
      labelNames: ['wallet'],
      registers,
    });
    this.#relayerFees = new Counter({
      name: 'peer_relayer_fees_paid_wei_total',
      help: 'Fees paid by the relayer transactions found mined (gas used times effective gas price), in wei, by sending wallet.',
      labelNames: ['wallet'],
      registers,
    });
    this.#relayerGasPrice = new Histogram({
      name: 'peer_relayer_gas_price_gwei',
      help: 'Effective gas price paid by each relayer transaction found mined, in gwei.',
      buckets: [...GAS_PRICE_BUCKETS],
      registers,
    });
    this.#attestationCalls = new Counter({
      name: 'peer_attestation_calls_total',
      help: 'Calls to the attestation service, by method and outcome (ok, a gRPC status such as unavailable, or untrusted).',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.#attestationDuration = new Histogram({
      name: 'peer_attestation_call_duration_seconds',
      help: 'Time of one call to the attestation service, retries of an outage included, by method.',
      labelNames: ['method'],
      buckets: [...ATTESTATION_BUCKETS],
      registers,
    });
    new Gauge({
      name: 'peer_heap_size_limit_bytes',
      help: "V8's heap size limit (--max-old-space-size): nodejs_heap_size_used_bytes near it ends in a crash, and past 80% of it the node reports degraded.",
      registers,
      collect() {
        this.set(getHeapStatistics().heap_size_limit);
      },
    });
    this.#scraped = new ScrapedGauges(this.registry, OBSERVED_SERIES, options.gaugeReadTimeoutMs ?? GAUGE_READ_TIMEOUT_MS);
    for (const outcome of WEBHOOK_OUTCOMES) this.#webhookAttempts.inc({ outcome }, 0);
    for (const method of ATTESTATION_METHODS) this.#attestationCalls.inc({ method, outcome: 'ok' }, 0);
  }

  ask(kind: string, outcome: AskOutcome, seconds: number): void {
    this.#zeroOnce(`ask:${kind}`, () => ASK_OUTCOMES.forEach((each) => this.#asks.inc({ kind, outcome: each }, 0)));
    this.#asks.inc({ kind, outcome });
    this.#askDuration.observe({ kind, outcome }, seconds);
  }

  turn(kind: string, outcome: TurnOutcome): void {
    this.#zeroTurns(kind);
    this.#turns.inc({ kind, outcome });
  }

  conflict(kind: string): void {
    this.#zeroTurns(kind);
    this.#conflicts.inc({ kind });
  }

  effect(kind: string, type: string, outcome: EffectOutcome): void {
    this.#zeroOnce(`effect:${kind}\u0000${type}`, () => EFFECT_OUTCOMES.forEach((each) => this.#effects.inc({ kind, type, outcome: each }, 0)));
    this.#effects.inc({ kind, type, outcome });
  }

  timerFired(kind: string, latenessSeconds: number): void {
    this.#timersFired.inc({ kind });
    this.#timerLateness.observe({ kind }, Math.max(0, latenessSeconds));
  }

  storeOperation(collection: string, operation: StoreOperation, seconds: number): void {
    this.#storeDuration.observe({ collection, operation }, seconds);
  }

  leaseRenewFailure(): void {
    this.#leaseRenewFailures.inc();
  }

  shardsHeld(count: number): void {
    this.#shardsHeld.set(count);
  }

  shardCount(count: number): void {
    this.#shardCount.set(count);
  }

  observe(gauges: ObservedGauges): void {
    this.#scraped.observe(gauges);
  }

  httpRequest(route: string, method: string, status: number, seconds: number): void {
    const verb = HTTP_METHODS.has(method) ? method : 'OTHER';
    this.#httpRequests.inc({ route, method: verb, status_class: `${Math.floor(status / 100)}xx` });
    this.#httpDuration.observe({ route, method: verb }, seconds);
  }

  webhookAttempt(outcome: WebhookAttemptOutcome, seconds: number): void {
    this.#webhookAttempts.inc({ outcome });
    this.#webhookDuration.observe(seconds);
  }

  relayerReceipt(wallet: string, succeeded: boolean, gasUsed: bigint, effectiveGasPrice: bigint): void {
    const labels = { wallet: wallet.toLowerCase() };
    this.#zeroOnce(`relayer:${labels.wallet}`, () => {
      for (const outcome of ['succeeded', 'reverted']) this.#relayerReceipts.inc({ ...labels, outcome }, 0);
    });
    this.#relayerReceipts.inc({ ...labels, outcome: succeeded ? 'succeeded' : 'reverted' });
    this.#relayerGasUsed.inc(labels, Number(gasUsed));
    this.#relayerFees.inc(labels, Number(gasUsed * effectiveGasPrice));
    this.#relayerGasPrice.observe(Number(effectiveGasPrice) / 1e9);
  }

  attestationCall(method: AttestationMethod, outcome: string, seconds: number): void {
    this.#attestationCalls.inc({ method, outcome });
    this.#attestationDuration.observe({ method }, seconds);
  }

  /** Every series in Prometheus' text format; gauges backed by callbacks are read now. */
  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  #zeroTurns(kind: string): void {
    this.#zeroOnce(`turn:${kind}`, () => {
      TURN_OUTCOMES.forEach((each) => this.#turns.inc({ kind, outcome: each }, 0));
      this.#conflicts.inc({ kind }, 0);
    });
  }

  /** Series for every outcome exist from a kind's first report, so `rate()` and `increase()` see the first failure. */
  #zeroOnce(key: string, zero: () => void): void {
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    zero();
  }
}
