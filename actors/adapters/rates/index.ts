/** actors/adapters/rates: fiat-per-USD exchange rates behind a provider interface, with a local provider for the embedded default. */
export * from './rate-source.js';
export * from './http-rate-provider.js';
