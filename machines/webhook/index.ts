/**
 * machines/webhook: merchants' webhook endpoints and the delivery of one event to one
 * endpoint, with document 1's event types and the retry schedule deliveries follow.
 */
export { EVENT_FAMILIES, isWebhookEventType, parseSubscription, payloadShapeOf, subscribes, V0_EVENT_NAMES, WEBHOOK_EVENT_TYPES } from './event-types.js';
export type { EventFamily, PayloadShape, SubscriptionParse, WebhookEventType } from './event-types.js';
export { JITTER, MAX_ATTEMPTS, RETRY_WAITS_MS, retryWaitMs } from './retry-schedule.js';
export { SECRET_OVERLAP_MS, signingSecrets, webhookMachine } from './webhook-machine.js';
export type {
  DisabledCode,
  DisabledReason,
  Environment,
  SigningSecret,
  WebhookChanges,
  WebhookContext,
  WebhookEvent,
  WebhookHeader,
  WebhookInput,
} from './webhook-machine.js';
export { deliveryMachine, deliveryStatusOf, HOLD_LIMIT_MS, KEPT_ATTEMPTS } from './delivery-machine.js';
export type {
  AttemptErrorCode,
  AttemptOutcome,
  AttemptRecord,
  DeliveryContext,
  DeliveryEvent,
  DeliveryFailure,
  DeliveryInput,
  DeliveryStatus,
  SendParams,
} from './delivery-machine.js';
