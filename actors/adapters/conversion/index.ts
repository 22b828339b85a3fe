/**
 * actors/adapters/conversion: the conversion provider (Relay): the port crypto rails use and
 * the port payouts are funded through and the one crypto payouts leave Base through, each with
 * its client over HTTP. Its local stand-in is a service of its own, deploy/conversion-simulator/,
 * which the node starts on the local chain and reaches through the same HTTP clients.
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
export { FUNDING_AMOUNT_TOO_LOW, FUNDING_ROUTE_UNAVAILABLE, FundingProviderUnavailable } from './funding-provider.js';
export type { FundingActivity, FundingProvider, FundingQuote, FundingRequest, FundingTransfer, FundingTransferStatus } from './funding-provider.js';
export { HttpConversionProvider } from './http-conversion-provider.js';
export type { HttpConversionProviderOptions } from './http-conversion-provider.js';
export { HttpFundingProvider } from './http-funding-provider.js';
export type { HttpFundingProviderOptions } from './http-funding-provider.js';
export { PAYOUT_AMOUNT_TOO_LOW, PAYOUT_ROUTE_UNAVAILABLE, PayoutBridgeUnavailable } from './payout-bridge.js';
export type {
  PayoutBridgeBinding,
  PayoutBridgePreview,
  PayoutBridgeProvider,
  PayoutBridgeProviderName,
  PayoutBridgeQuote,
  PayoutBridgeRequestStatus,
  PayoutBridgeRoute,
  PayoutBridgeState,
} from './payout-bridge.js';
export { HttpPayoutBridge } from './http-payout-bridge.js';
export type { HttpPayoutBridgeOptions } from './http-payout-bridge.js';
