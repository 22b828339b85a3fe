/**
 * The payment flow's side effects: the effects of the payment machine, and the ports they
 * use (the chain calls an intent needs, the conversion provider crypto rails need), which live
 * with their implementations in actors/adapters/.
 */
export type { ChainCallData, IntentPort, IntentTerms, SignalledIntent } from '../adapters/chain/intent-port.js';
export { ConversionRefused } from '../adapters/conversion/conversion-provider.js';
export type {
  ConversionProvider,
  ConversionQuote,
  ConversionQuoteRequest,
  ConversionState,
  ConversionStatus,
  Delivery,
  DeliveryReader,
} from '../adapters/conversion/conversion-provider.js';
export { DeliveryClaims } from './delivery-claims.js';
export { paymentEffects } from './payment-effects.js';
export type { PaymentEffectDependencies } from './payment-effects.js';
