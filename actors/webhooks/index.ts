/**
 * actors/webhooks: merchants' webhook endpoints and the delivery of domain events to
 * them: the `webhook` and `delivery` actor kinds (in actors/kinds/), the dispatcher that
 * makes deliveries from the event bus, the payload shapes, signing, and the guarded HTTP attempt.
 */
export { publicWebhook, webhookContextOf, webhookKind } from '../kinds/webhook-kind.js';
export type { PublicWebhook, WebhookReply, WebhookView } from '../kinds/webhook-kind.js';
export { answeredDelivery, deliveryIdOf, deliveryKind, deliveryView, followedLink } from '../kinds/delivery-kind.js';
export type { DeliveryView, PublicDelivery } from '../kinds/delivery-kind.js';
export { deliveryEffects } from './delivery-effects.js';
export type { DeliveryEffectDependencies } from './delivery-effects.js';
export { DISPATCHER_DURABLE, WebhookDispatcher } from './webhook-dispatcher.js';
export type { RecordedEvent, RecordedEvents, WebhookDispatcherOptions } from './webhook-dispatcher.js';
export { WebhookLanes } from './webhook-lanes.js';
export { merchantsFailingWebhooks, RETRYING_AFTER_ATTEMPTS } from './webhook-health.js';
export { DISPUTE_WEBHOOK_VERSION, PAYOUT_WEBHOOK_VERSION, subjectOf, webhookEventId, webhookPayload } from './payloads.js';
export type { OrderLookup } from './payloads.js';
export { eventOwner } from './event-owner.js';
export type { EventOwner } from './event-owner.js';
export { isWebhookSecret, newWebhookSecret, SIGNATURE_HEADER_NAMES, signatureHeaders } from './signing.js';
export type { SignInput } from './signing.js';
export { checkWebhookUrl, ForbiddenDestinationError, forbiddenRange, guardedLookup } from './destination-guard.js';
export type { DestinationPolicy, UrlCheck } from './destination-guard.js';
export { RESPONSE_EXCERPT_BYTES, sendAttempt } from './http-sender.js';
export type { AttemptErrorCode, AttemptRequest, AttemptResult } from './http-sender.js';
