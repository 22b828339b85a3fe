/**
 * Gauges whose values callbacks (RuntimeMetrics.observe) read when Prometheus scrapes:
 * counts from the store, the indexer's status, the relayer's wallets. Until a callback is
 * given, or when it fails or takes too long, the scrape carries no sample of its gauges
 * (Prometheus then marks the series stale rather than showing a made-up number), and the
 * failure is counted in `peer_metrics_gauge_read_failures_total`.
 *
 * Gauges fed by one callback share one read per scrape, so the indexer is asked its
 * status once however many gauges show it.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ObservedGauges } from './runtime-metrics.js';

type Source = keyof ObservedGauges;
type Reading<S extends Source> = Awaited<ReturnType<NonNullable<ObservedGauges[S]>>>;

export interface GaugeSample {
  labels: Record<string, string>;
  value: number;
}

export interface ScrapedGaugeSpec<S extends Source = Source> {
  name: string;
  help: string;
  source: S;
  labelNames?: readonly string[];
  /** The samples a reading of `source` gives this gauge. */
  samples(reading: Reading<S>): GaugeSample[];
}

/** A spec with its source's reading type checked, for a list of specs of different sources. */
export function scraped<S extends Source>(spec: ScrapedGaugeSpec<S>): ScrapedGaugeSpec {
  return spec as unknown as ScrapedGaugeSpec;
}

export class ScrapedGauges {
  readonly #observed: ObservedGauges = {};
  /** Reads under way in this scrape, shared by the gauges of one source. */
  readonly #reads = new Map<Source, Promise<unknown>>();
  readonly #timeoutMs: number;
  readonly #failures: Counter<'gauge'>;

  /** Registers every gauge of `specs`, then the failure counter after them: a scrape collects in registration order, so it counts this scrape's failures. */
  constructor(registry: Registry, specs: readonly ScrapedGaugeSpec[], timeoutMs: number) {
    this.#timeoutMs = timeoutMs;
    for (const spec of specs) new SampledGauge(spec, registry, () => this.#samples(spec));
    const reads = this.#reads;
    this.#failures = new Counter({
      name: 'peer_metrics_gauge_read_failures_total',
      help: 'Scrape-time gauge reads that failed or timed out, by gauge; that scrape carries no sample of the gauge.',
      labelNames: ['gauge'],
      registers: [registry],
      async collect() {
        await Promise.allSettled(reads.values());
      },
    });
    for (const spec of specs) this.#failures.inc({ gauge: spec.name }, 0);
  }

  observe(gauges: ObservedGauges): void {
    for (const [source, callback] of Object.entries(gauges)) {
      if (callback) (this.#observed as Record<string, unknown>)[source] = callback;
    }
  }

  async #samples(spec: ScrapedGaugeSpec): Promise<GaugeSample[]> {
    if (!this.#observed[spec.source]) return [];
    try {
      return spec.samples((await this.#read(spec.source)) as never);
    } catch {
      this.#failures.inc({ gauge: spec.name });
      return [];
    }
  }

  #read(source: Source): Promise<unknown> {
    const shared = this.#reads.get(source);
    if (shared) return shared;
    const read = this.#timed(this.#observed[source]!).finally(() => this.#reads.delete(source));
    this.#reads.set(source, read);
    return read;
  }

  async #timed(callback: () => Promise<unknown>): Promise<unknown> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`a gauge read took over ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    try {
      return await Promise.race([callback(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A gauge whose samples are read when the registry collects it; none when the read gives none. */
class SampledGauge extends Gauge {
  readonly #read: () => Promise<GaugeSample[]>;

  constructor(spec: ScrapedGaugeSpec, registry: Registry, read: () => Promise<GaugeSample[]>) {
    super({ name: spec.name, help: spec.help, labelNames: [...(spec.labelNames ?? [])], registers: [registry] });
    this.#read = read;
  }

  override async get(): ReturnType<Gauge['get']> {
    const [metric, values] = await Promise.all([super.get(), this.#read()]);
    return { ...metric, values };
  }
}
