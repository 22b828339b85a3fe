/**
 * Exchange rates: how many units of a fiat currency one USD buys, as 6-decimal
 * bigint (document 1 and DOMAIN: rates have 6 decimals). USD is fixed at 1.000000;
 * other currencies come from a provider behind this interface: the real conversion
 * provider in a deployment, a local table for the embedded default and tests.
 */
export const RATE_SCALE = 1_000_000n;

export interface RateProvider {
  /** Fiat units per USD, scaled by 1e6, or null when the provider has no rate for it now. */
  currencyPerUsd(currency: string): Promise<bigint | null>;
}

export class RateSource {
  constructor(private readonly provider: RateProvider) {}

  async currencyPerUsd(currency: string): Promise<bigint | null> {
    const code = currency.toUpperCase();
    if (code === 'USD') return RATE_SCALE;
    return this.provider.currencyPerUsd(code);
  }
}

/**
 * The embedded default's stand-in for the conversion provider: fixed rates for the
 * currencies the fiat rails serve. Honest about what it is: no market data, no drift.
 */
export class LocalRateProvider implements RateProvider {
  static readonly DEFAULT_RATES: Readonly<Record<string, bigint>> = {
    EUR: 920_000n,
    GBP: 790_000n,
    CAD: 1_360_000n,
    AUD: 1_520_000n,
    SGD: 1_340_000n,
    INR: 83_500_000n,
    MXN: 17_100_000n,
    ARS: 870_000_000n,
    BRL: 5_050_000n,
  };

  readonly #rates: Map<string, bigint>;

  constructor(rates: Readonly<Record<string, bigint>> = LocalRateProvider.DEFAULT_RATES) {
    this.#rates = new Map(Object.entries(rates));
  }

  async currencyPerUsd(currency: string): Promise<bigint | null> {
    return this.#rates.get(currency) ?? null;
  }
}
