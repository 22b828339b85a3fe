/**
 * actors/merchant-events: the log of each merchant account's events, kept 30 days with
 * the webhook body of each (what GET /api/v1/events lists and its stream sends), and the
 * recorder that fills it from the event bus.
 */
export { EVENT_RETENTION_MS, MERCHANT_EVENTS_COLLECTION, MerchantEventLog } from './event-log.js';
export type { EventFilter, EventRecord, EventWatcher, NewEventRecord } from './event-log.js';
export { EventRecorder } from './event-recorder.js';
export type { EventRecorderOptions } from './event-recorder.js';
