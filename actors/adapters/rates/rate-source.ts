/**
 * Exchange rates: how many units of a fiat currency one USD buys, as 6-decimal
 * bigint (document 1 and DOMAIN: rates have 6 decimals). USD is fixed at 1.000000;
 * other currencies come from a provider behind this interface: the real conversion
 * provider in a deployment, a local table for the embedded default and tests.
 */
import { parseRate } from '../../../machines/money.js';
import { PlatformError } from '../../errors/platform-error.js';

const ONE = parseRate('1');

export interface RateProvider {
  /**
   * Fiat units per USD, scaled by 1e6, or null when the provider does not price that
   * currency. Throws RateUnavailableError when it has no rate it can stand behind now.
   */
  currencyPerUsd(currency: string): Promise<bigint | null>;
}

/** No rate may be used now: the provider cannot be reached and its last answer is too old. */
export class RateUnavailableError extends PlatformError {
  override readonly name = 'RateUnavailableError';
  readonly code = 'RATE_UNAVAILABLE';
}

export class RateSource {
  constructor(private readonly provider: RateProvider) {}

  async currencyPerUsd(currency: string): Promise<bigint | null> {
    const code = currency.toUpperCase();
    if (code === 'USD') return ONE;
    return this.provider.currencyPerUsd(code);
  }
}

/**
 * The embedded default's stand-in for the conversion provider: fixed rates for the
 * currencies the fiat rails serve. Honest about what it is: no market data, no drift.
 */
export class LocalRateProvider implements RateProvider {
  static readonly DEFAULT_RATES: Readonly<Record<string, bigint>> = {
    EUR: parseRate('0.92'),
    GBP: parseRate('0.79'),
    CAD: parseRate('1.36'),
    AUD: parseRate('1.52'),
    SGD: parseRate('1.34'),
    INR: parseRate('83.5'),
    MXN: parseRate('17.1'),
    ARS: parseRate('870'),
    BRL: parseRate('5.05'),
  };

  readonly #rates: Map<string, bigint>;

  constructor(rates: Readonly<Record<string, bigint>> = LocalRateProvider.DEFAULT_RATES) {
    this.#rates = new Map(Object.entries(rates));
  }

  async currencyPerUsd(currency: string): Promise<bigint | null> {
    return this.#rates.get(currency) ?? null;
  }
}
