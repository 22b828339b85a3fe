/**
 * RuntimeMetrics as Prometheus series (prom-client), on a registry of its own: tests run
 * many nodes in one process, and prom-client's global registry would mix their series
 * and refuse the second node's metric names. Node's default metrics (CPU, memory, event
 * loop lag, GC, handles) are registered beside the runtime's.
 *
 * Names follow Prometheus' conventions: a `peer_` prefix, the unit in the name
 * (`_seconds`), `_total` on counters. Labels are kinds, effect types, collections,
 * operations and outcomes only, all from small fixed sets; never an actor id.
 * docs/metrics.md describes every series.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AskOutcome, EffectOutcome, RuntimeMetrics, TurnOutcome } from './runtime-metrics.js';

type StoreOperation = Parameters<RuntimeMetrics['storeOperation']>[1];
type ObservedGauges = Parameters<RuntimeMetrics['observe']>[0];

const ASK_OUTCOMES: readonly AskOutcome[] = ['ok', 'rejected', 'unknown_actor', 'timeout', 'unavailable', 'error'];
const TURN_OUTCOMES: readonly TurnOutcome[] = ['applied', 'replayed', 'rejected', 'error'];
const EFFECT_OUTCOMES: readonly EffectOutcome[] = ['ok', 'retry', 'dead_lettered'];

/**
 * Asks: an embedded ask answers in well under a millisecond, one over NATS in a few, and a
 * slow one runs up to ASK_TIMEOUT_MS (10 s by default; a timed-out ask lands in the last
 * buckets or +Inf).
 */
const ASK_BUCKETS: readonly number[] = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

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

export class PrometheusMetrics implements RuntimeMetrics {
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
  readonly #gaugeReadFailures: Counter<'gauge'>;
  readonly #observed: ObservedGauges = {};
  /** Gauge reads of the scrape under way. */
  readonly #reading = new Set<Promise<unknown>>();
  readonly #gaugeReadTimeoutMs: number;
  /** Kinds and (kind, effect type) pairs whose counters are already at zero for every outcome. */
  readonly #seen = new Set<string>();

  constructor(options: PrometheusMetricsOptions = {}) {
    const registers = [this.registry];
    this.#gaugeReadTimeoutMs = options.gaugeReadTimeoutMs ?? GAUGE_READ_TIMEOUT_MS;
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
    this.#scrapedGauge(
      'peer_outbox_pending',
      'Actors on the shards of this node whose outbox holds effects not yet done, counted at scrape time.',
      'pendingOutbox',
    );
    this.#scrapedGauge(
      'peer_dead_letters_open',
      'Open dead letters in the store (shared by the cluster: every node reports the same count), counted at scrape time.',
      'deadLetters',
    );
    // Registered after the gauges it counts for: a scrape collects in registration order, so this waits for their reads and counts this scrape's failures.
    const reading = this.#reading;
    this.#gaugeReadFailures = new Counter({
      name: 'peer_metrics_gauge_read_failures_total',
      help: 'Scrape-time gauge reads that failed or timed out, by gauge; that scrape carries no sample of the gauge.',
      labelNames: ['gauge'],
      registers,
      async collect() {
        await Promise.allSettled(reading);
      },
    });
    for (const gauge of ['peer_outbox_pending', 'peer_dead_letters_open']) this.#gaugeReadFailures.inc({ gauge }, 0);
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

  observe(gauges: ObservedGauges): void {
    if (gauges.pendingOutbox) this.#observed.pendingOutbox = gauges.pendingOutbox;
    if (gauges.deadLetters) this.#observed.deadLetters = gauges.deadLetters;
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

  /**
   * A gauge whose value a callback given to observe() reads at scrape time. Until one is
   * given, or when it fails or hangs, the scrape carries no sample of it (Prometheus then
   * marks the series stale rather than showing a made-up number), and a failure is counted.
   */
  #scrapedGauge(name: string, help: string, source: keyof ObservedGauges): void {
    const read = async (): Promise<number | undefined> => {
      if (!this.#observed[source]) return undefined;
      try {
        return await this.#read(source);
      } catch {
        this.#gaugeReadFailures.inc({ gauge: name });
        return undefined;
      }
    };
    new ScrapedGauge(name, help, this.registry, () => {
      const value = read();
      this.#reading.add(value);
      return value.finally(() => this.#reading.delete(value));
    });
  }

  async #read(source: keyof ObservedGauges): Promise<number> {
    const callback = this.#observed[source]!;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${source} took over ${this.#gaugeReadTimeoutMs} ms`)), this.#gaugeReadTimeoutMs);
    });
    try {
      return await Promise.race([callback(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A gauge without labels whose one sample is read when the registry collects it, or left out when the read gives none. */
class ScrapedGauge extends Gauge {
  readonly #read: () => Promise<number | undefined>;

  constructor(name: string, help: string, registry: Registry, read: () => Promise<number | undefined>) {
    super({ name, help, registers: [registry] });
    this.#read = read;
  }

  override async get(): ReturnType<Gauge['get']> {
    const [metric, value] = await Promise.all([super.get(), this.#read()]);
    return { ...metric, values: value === undefined ? [] : [{ value, labels: {} }] };
  }
}
