/**
 * machines/webhook: merchants' webhook endpoints and the delivery of one event to one
 * endpoint, with document 1's event types and the retry schedule deliveries follow.
 */
export * from './event-types.js';
export * from './retry-schedule.js';
export * from './webhook-machine.js';
export * from './delivery-machine.js';
