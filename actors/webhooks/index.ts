/**
 * actors/webhooks: merchants' webhook endpoints and the delivery of domain events to
 * them: the `webhook` and `delivery` actor kinds (in actors/kinds/), the dispatcher that
 * makes deliveries from the event bus, the payload shapes, signing, and the guarded HTTP attempt.
 */
export * from '../kinds/webhook-kind.js';
export * from '../kinds/delivery-kind.js';
export * from './delivery-effects.js';
export * from './webhook-dispatcher.js';
export * from './webhook-lanes.js';
export * from './payloads.js';
export * from './event-owner.js';
export * from './signing.js';
export * from './destination-guard.js';
export * from './http-sender.js';
