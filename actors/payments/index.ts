/**
 * The payment flow's side effects: the chain calls an intent needs and the conversion
 * provider crypto rails need (ports the node implements), and the effects of the payment machine.
 */
export * from './intent-port.js';
export * from './conversion-provider.js';
export * from './http-conversion-provider.js';
export * from './delivery-claims.js';
export * from './payment-effects.js';
