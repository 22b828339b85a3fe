/**
 * actors/merchant-events: the log of each merchant account's events, kept 30 days with
 * the webhook body of each (what GET /api/v1/events lists and its stream sends), and the
 * recorder that fills it from the event bus.
 */
export * from './event-log.js';
export * from './event-recorder.js';
