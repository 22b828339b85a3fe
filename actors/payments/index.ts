/** The payment flow's side effects: the chain calls an intent needs (a port the node implements) and the effects of the payment machine. */
export * from './intent-port.js';
export * from './payment-effects.js';
