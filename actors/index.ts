/**
 * actors/: the runtime every order, payment, payout and deposit runs on (system,
 * mailboxes, placement, transports, stores, timers, outbox, clock, config, logging),
 * and, as later issues add them, one module per actor kind binding a machine to its effects.
 */
export * from './address.js';
export * from './clock.js';
export * from './codec.js';
export * from './config.js';
export * from './errors.js';
export * from './logger.js';
export * from './runtime/index.js';
export * from './transport/index.js';
export * from './store/index.js';
export * from './events/index.js';
export * from './metrics/index.js';
