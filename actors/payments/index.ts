/**
 * The payment flow's side effects: the effects of the payment machine, and the ports they
 * use (the chain calls an intent needs, the conversion provider crypto rails need), which live
 * with their implementations in actors/adapters/.
 */
export * from '../adapters/chain/intent-port.js';
export * from '../adapters/conversion/conversion-provider.js';
export * from './delivery-claims.js';
export * from './payment-effects.js';
