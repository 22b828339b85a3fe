/**
 * Rates from a conversion provider over HTTP. One request fetches every rate against
 * USD (`GET <url>`, JSON `{ "base": "USD", "rates": { "EUR": "0.92", … } }`, each rate
 * a decimal string or a JSON number, optional `timestamp` in seconds) and the answer
 * is kept for `maxAgeMs`; concurrent callers share one request. A provider that is
 * slow, down or answers nonsense past the cached answer's age makes every rate
 * unavailable (RateUnavailableError): pricing an order at a stale rate would move
 * the merchant's money at a price nobody quoted.
 */
import type { Clock } from '../../clock.js';
import { parseRate } from '../../../machines/money.js';
import { RateUnavailableError, type RateProvider } from './rate-source.js';

export interface HttpRateProviderOptions {
  url: string;
  /** Sent as `Authorization: Bearer <key>`; never logged. */
  apiKey?: string;
  timeoutMs: number;
  maxAgeMs: number;
  clock: Clock;
}

interface Snapshot {
  rates: Map<string, bigint>;
  fetchedAt: number;
}

export class HttpRateProvider implements RateProvider {
  #snapshot: Snapshot | null = null;
  #fetching: Promise<Snapshot> | null = null;

  constructor(private readonly options: HttpRateProviderOptions) {}

  async currencyPerUsd(currency: string): Promise<bigint | null> {
    const snapshot = await this.#fresh();
    return snapshot.rates.get(currency.toUpperCase()) ?? null;
  }

  async #fresh(): Promise<Snapshot> {
    const now = this.options.clock.now();
    if (this.#snapshot && now - this.#snapshot.fetchedAt < this.options.maxAgeMs) return this.#snapshot;
    this.#fetching ??= this.#fetch().finally(() => (this.#fetching = null));
    try {
      this.#snapshot = await this.#fetching;
      return this.#snapshot;
    } catch (error) {
      throw new RateUnavailableError(`exchange rates are unavailable: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }

  async #fetch(): Promise<Snapshot> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const response = await fetch(this.options.url, { headers, signal: AbortSignal.timeout(this.options.timeoutMs) });
    if (!response.ok) throw new Error(`the provider answered ${response.status}`);
    const body = (await response.json()) as { base?: unknown; rates?: unknown };
    if (body.base !== undefined && body.base !== 'USD') throw new Error(`the provider's base is ${String(body.base)}, not USD`);
    if (typeof body.rates !== 'object' || body.rates === null) throw new Error('the provider sent no rates');
    const rates = new Map<string, bigint>();
    for (const [code, value] of Object.entries(body.rates)) {
      const rate = rateOf(value);
      if (/^[A-Z]{3}$/.test(code) && rate !== null && rate > 0n) rates.set(code, rate);
    }
    return { rates, fetchedAt: this.options.clock.now() };
  }
}

/**
 * A provider's rate as 6-decimal units. A JSON number is read through its shortest
 * decimal text and rounded half up at the sixth decimal on the digits, never in
 * floating point.
 */
function rateOf(value: unknown): bigint | null {
  const text = typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? numberText(value) : null;
  if (text === null || !/^\d+(\.\d+)?$/.test(text)) return null;
  const [whole, fraction = ''] = text.split('.');
  const kept = parseRate(`${whole}.${fraction.slice(0, 6).padEnd(6, '0')}`);
  return (fraction[6] ?? '0') >= '5' ? kept + 1n : kept;
}

/** The plain decimal text of a number, expanding exponents (1e-7 → 0.0000001). */
function numberText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}
