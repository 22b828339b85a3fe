/**
 * actors/adapters/conversion: the conversion provider crypto rails use (Relay): its port and the
 * client over HTTP. Its local stand-in is a service of its own, deploy/conversion-simulator/,
 * which the node starts on the local chain and reaches through the same HTTP client.
 */
export { ConversionRefused } from './conversion-provider.js';
export type {
  ConversionProvider,
  ConversionQuote,
  ConversionQuoteRequest,
  ConversionState,
  ConversionStatus,
  Delivery,
  DeliveryReader,
} from './conversion-provider.js';
export { HttpConversionProvider } from './http-conversion-provider.js';
export type { HttpConversionProviderOptions } from './http-conversion-provider.js';
