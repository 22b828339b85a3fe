/**
 * Turns domain events into deliveries: a durable consumer of the event bus that, for
 * each event of a webhook type, finds the merchant's endpoints subscribed to it (any
 * but deleted ones), builds the body once (so every endpoint and every attempt gets the
 * same bytes and id) and makes one `delivery` actor per endpoint. A delivery to an
 * endpoint that is off is made SUSPENDED: it sends nothing until the merchant
 * redelivers it, so an event an endpoint missed is never lost. It runs on one node of the cluster
 * (a singleton) and takes one event at a time, in the bus's order. The body is the one
 * the merchant event log recorded for the event (actors/merchant-events/), so the
 * list, the stream and every delivery carry the same bytes.
 *
 * Time. A delivery runs on the clock of the actor that raised its event: the sandbox
 * test clock an order (and so its payments) was created on, or the node's; the runtime
 * stamps the event with it as it publishes (DomainEvent.clockId), so finding it costs no
 * read. Its CREATE carries that `clockId`, which attaches it as the runtime attaches
 * any actor (actors/runtime/test-clock-time.ts), so its retries fall due on the clock
 * and an advance of the clock runs them.
 *
 * Order per subject. A new delivery of an order whose previous event to the same
 * endpoint has not had its first answer yet is made HELD and linked to that one, which
 * releases it once answered. Every step is idempotent by message id, so an event the
 * bus hands over again after a crash makes nothing twice.
 */
import type { Logger } from 'pino';
import type { DomainEvent, EventBus, Subscription } from '../events/event-bus.js';
import { CommandRejectedError } from '../errors.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import { WEBHOOK_EVENT_TYPES, isWebhookEventType, subscribes, type DeliveryEvent } from '../../machines/webhook/index.js';
import { webhookKind, type PublicWebhook } from '../kinds/webhook-kind.js';
import { deliveryIdOf, deliveryKind, followedLink } from '../kinds/delivery-kind.js';
import { subjectOf, webhookEventId } from './payloads.js';
import type { WebhookLanes } from './webhook-lanes.js';

export const DISPATCHER_DURABLE = 'webhooks';

/** An event's account and its webhook body, as the event log keeps them. */
export interface RecordedEvent {
  merchantId: string;
  payload: Record<string, unknown>;
}

/** Records each event once, with its body; answers the first record of an event handed over again. */
export interface RecordedEvents {
  /** null: not a merchant's event (no webhook type, no account). */
  record(event: DomainEvent): Promise<RecordedEvent | null>;
}

export interface WebhookDispatcherOptions {
  system: ActorSystem;
  bus: EventBus;
  lanes: WebhookLanes;
  events: RecordedEvents;
  logger: Logger;
}

export class WebhookDispatcher {
  #subscription: Subscription | null = null;
  #role: { release(): Promise<void> } | null = null;

  constructor(private readonly options: WebhookDispatcherOptions) {}

  start(): void {
    this.#role = this.options.system.singleton('webhook-dispatcher', {
      start: async () => {
        this.#subscription = await this.options.bus.consume({ durable: DISPATCHER_DURABLE, types: [...WEBHOOK_EVENT_TYPES] }, (event) => this.dispatch(event));
      },
      stop: async () => {
        await this.#subscription?.stop();
        this.#subscription = null;
      },
    });
  }

  async stop(): Promise<void> {
    await this.#role?.release();
    this.#role = null;
  }

  async dispatch(event: DomainEvent): Promise<void> {
    if (!isWebhookEventType(event.type)) return;
    const recorded = await this.options.events.record(event);
    if (!recorded) return;
    const { merchantId } = recorded;
    const rows = await this.options.system
      .views(webhookKind)
      .find({ 'view.merchantId': merchantId, 'view.deleted': false }, { sort: { 'view.createdAt': 1 }, projection: { view: 1 } });
    const endpoints = rows.map((row) => row.view.webhook).filter((webhook) => subscribes(webhook.events, event.type));
    if (endpoints.length === 0) return;
    const body = JSON.stringify(recorded.payload);
    const eventId = webhookEventId(event);
    const subjectId = subjectOf(event);
    const clockId = event.clockId ?? null;
    for (const endpoint of endpoints) await this.#deliver(endpoint, event, { body, eventId, subjectId, merchantId, clockId });
  }

  async #deliver(
    endpoint: PublicWebhook,
    event: DomainEvent,
    fields: { body: string; eventId: string; subjectId: string; merchantId: string; clockId: string | null },
  ): Promise<void> {
    const { system, lanes } = this.options;
    const id = deliveryIdOf(fields.eventId, endpoint.id);
    const last = await lanes.last(endpoint.id, fields.subjectId);
    const predecessor = last !== null && last !== id ? last : null;
    const create: DeliveryEvent = {
      type: 'CREATE',
      id,
      webhookId: endpoint.id,
      merchantId: fields.merchantId,
      eventId: fields.eventId,
      eventType: event.type,
      subjectId: fields.subjectId,
      body: fields.body,
      eventAt: new Date(event.at).toISOString(),
      held: predecessor !== null,
      suspended: !endpoint.active,
      at: new Date(event.at).toISOString(),
    };
    try {
      await system.ask(deliveryKind, id, { ...create, ...(fields.clockId ? { clockId: fields.clockId } : {}) }, { messageId: `create:${id}` });
    } catch (error) {
      // Made by an earlier run whose message id has since been forgotten.
      if (!(error instanceof CommandRejectedError && error.code === 'ALREADY_EXISTS')) throw error;
    }
    if (predecessor !== null) {
      const link = followedLink(await system.ask(deliveryKind, predecessor, { type: 'FOLLOWED_BY', successorId: id }, { messageId: `follow:${id}` }));
      if (!link.held) await system.ask(deliveryKind, id, { type: 'RELEASE' }, { messageId: `release:${id}` });
    }
    await lanes.advance(endpoint.id, fields.subjectId, id);
  }
}
