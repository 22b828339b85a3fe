/** actors/adapters/rates: fiat-per-USD exchange rates behind a provider interface, with a local provider for the embedded default. */
export { LocalRateProvider, RateSource, RateUnavailableError } from './rate-source.js';
export type { RateProvider } from './rate-source.js';
export { HttpRateProvider } from './http-rate-provider.js';
export type { HttpRateProviderOptions } from './http-rate-provider.js';
