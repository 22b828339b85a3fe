/**
 * The node's webhook side: the endpoint and delivery kinds, with deliveries sent over
 * the guarded HTTP sender, and the dispatcher that turns the bus's events into
 * deliveries (started once the actors run), recording each in the merchant event log
 * as it goes.
 */
import type { Logger } from 'pino';
import type { Config } from '../actors/config.js';
import type { EventBus } from '../actors/events/event-bus.js';
import { withEffects, type ActorKind } from '../actors/runtime/actor-kind.js';
import type { ActorSystem } from '../actors/runtime/actor-system.js';
import type { Store } from '../actors/store/store.js';
import type { DestinationPolicy } from '../actors/webhooks/destination-guard.js';
import { deliveryEffects } from '../actors/webhooks/delivery-effects.js';
import { deliveryKind } from '../actors/kinds/delivery-kind.js';
import { sendAttempt, type AttemptRequest, type AttemptResult } from '../actors/webhooks/http-sender.js';
import { WebhookDispatcher } from '../actors/webhooks/webhook-dispatcher.js';
import { webhookKind } from '../actors/kinds/webhook-kind.js';
import type { EventRecorder } from '../actors/merchant-events/event-recorder.js';
import { WebhookLanes } from '../actors/webhooks/webhook-lanes.js';
import { merchantsFailingWebhooks } from '../actors/webhooks/webhook-health.js';
import type { Environment } from '../machines/webhook/index.js';

export interface WebhookSide {
  kinds: ActorKind[];
  /** Where an endpoint of each environment may point: what the setup API checks and every attempt checks again. */
  policy(environment: Environment): DestinationPolicy;
  /** Starts the dispatcher; call once the actor system runs. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Plain http is for sandbox endpoints, and for any endpoint outside production. */
export function destinationPolicy(config: Pick<Config, 'NODE_ENV' | 'WEBHOOK_ALLOW_PRIVATE'>): (environment: Environment) => DestinationPolicy {
  return (environment) => ({ requireHttps: environment === 'LIVE' && config.NODE_ENV === 'production', allowPrivate: config.WEBHOOK_ALLOW_PRIVATE });
}

export function webhookSide(
  config: Config,
  system: ActorSystem,
  store: Store,
  bus: EventBus,
  events: EventRecorder,
  logger: Logger,
  send: (request: AttemptRequest) => Promise<AttemptResult> = sendAttempt,
): WebhookSide {
  const policy = destinationPolicy(config);
  const kinds = [webhookKind, withEffects(deliveryKind, deliveryEffects({ system, send, policy, timeoutMs: config.WEBHOOK_TIMEOUT_MS }))];
  let dispatcher: WebhookDispatcher | null = null;
  return {
    kinds,
    policy,
    async start() {
      events.start();
      dispatcher = new WebhookDispatcher({ system, bus, lanes: await WebhookLanes.open(store), events, logger });
      dispatcher.start();
      system.metrics.observe({ webhookMerchantsFailing: () => merchantsFailingWebhooks(system) });
    },
    async stop() {
      await dispatcher?.stop();
      events.stop();
    },
  };
}
