/**
 * A webhook's deliveries as the merchant reads and replays them: the paged log with its
 * filters, one delivery with its attempts, a redelivery, a redelivery of everything
 * that failed since a time, and the test event. Reads query the `delivery` actors'
 * views; every replay is a message to a delivery actor.
 */
import { testEventBody } from './test-event-body.js';
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { CommandRejectedError } from '../../actors/errors.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { ViewFilter } from '../../actors/runtime/view-collection.js';
import { answeredDelivery, deliveryIdOf, deliveryKind, type DeliveryView } from '../../actors/kinds/delivery-kind.js';
import type { PublicWebhook } from '../../actors/kinds/webhook-kind.js';
import type { DeliveryEvent } from '../../machines/webhook/index.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import { newestPage } from '../paged-views.js';
import type { listDeliveriesQuery } from './webhook-schemas.js';
import { untilView } from '../view-poll.js';
import type { WebhookSetup } from './webhook-setup.js';

type ListQuery = z.infer<typeof listDeliveriesQuery>;

/** How much longer than an attempt's time-out the test waits for its answer. */
const TEST_ANSWER_MARGIN_MS = 2_000;

export interface DeliveryLogDependencies {
  system: ActorSystem;
  setup: WebhookSetup;
  now(): string;
  /** How long one attempt may take: the test waits that long for its answer, and a little more. */
  attemptTimeoutMs: number;
  /** Where the list's total stops counting (paged-views.ts). */
  totalCap: number;
}

function deliveryNotFound(): ApiError {
  return new ApiError(404, 'Delivery not found', 'NOT_FOUND');
}

/** The delivery does not take a redelivery now: an attempt of it is under way. */
const inFlight = (error: unknown) => error instanceof CommandRejectedError && error.code === 'EVENT_NOT_ACCEPTED';

export class DeliveryLog {
  constructor(private readonly deps: DeliveryLogDependencies) {}

  async list(account: MerchantAccount, webhookId: string, query: ListQuery) {
    const filter: ViewFilter<DeliveryView> = { 'view.webhookId': webhookId };
    if (query.status) filter['view.status'] = query.status;
    if (query.eventType) filter['view.eventType'] = query.eventType;
    if (query.eventId) filter['view.eventId'] = query.eventId;
    await this.deps.setup.read(account, webhookId);
    const { docs, ...total } = await newestPage(this.deps.system.views(deliveryKind), filter, query, { 'view.delivery': 1 }, this.deps.totalCap);
    return { deliveries: docs.map((doc) => doc.view.delivery), ...total, page: query.page, limit: query.limit };
  }

  async read(account: MerchantAccount, webhookId: string, deliveryId: string) {
    await this.deps.setup.read(account, webhookId);
    const view = await this.#view(webhookId, deliveryId, { view: 1 });
    return { ...view.delivery, attemptHistory: view.attemptHistory, payload: view.payload };
  }

  async redeliver(account: MerchantAccount, webhookId: string, deliveryId: string) {
    await this.#activeWebhook(account, webhookId);
    await this.#view(webhookId, deliveryId, { _id: 1 });
    try {
      return answeredDelivery(await this.deps.system.ask(deliveryKind, deliveryId, { type: 'REDELIVER', at: this.deps.now() }));
    } catch (error) {
      if (inFlight(error))
        throw new ApiError(409, 'The delivery is being sent now; wait for its answer', 'DELIVERY_IN_PROGRESS', null, undefined, { cause: error });
      throw error;
    }
  }

  /**
   * The oldest `limit` deliveries that failed, made at or after `since`, each sent again once; a SUSPENDED one
   * (made while the webhook was off) starts on its schedule, behind the event before it of the same order.
   */
  async redeliverFailed(account: MerchantAccount, webhookId: string, body: { since: string; limit: number }) {
    await this.#activeWebhook(account, webhookId);
    const filter = { 'view.webhookId': webhookId, 'view.status': 'FAILED', 'view.createdAt': { $gte: new Date(body.since).toISOString() } };
    const docs = await this.deps.system
      .views(deliveryKind)
      .find(filter, { sort: { 'view.createdAt': 1, _id: 1 }, limit: body.limit + 1, projection: { _id: 1 } });
    const at = this.deps.now();
    const sent: string[] = [];
    // One after another: deliveries of one order go back out in the order they were made.
    for (const { _id: id } of docs.slice(0, body.limit)) {
      try {
        await this.deps.system.ask(deliveryKind, id, { type: 'REDELIVER', at });
        sent.push(id);
      } catch (error) {
        // Sent again meanwhile by another call: it is on its way already.
        if (!inFlight(error)) throw error;
      }
    }
    return { count: sent.length, deliveryIds: sent, more: docs.length > body.limit };
  }

  /**
   * A test event of `eventType` through a delivery like any other (it shows in the log),
   * tried once, and its answer, in its type's payload shape (test-event-body.ts): an order
   * or payout test event carries no resource and its id starts `evt_test_`; a dispute test
   * event is `dispute_test_<24 hex>_<type>` with a sample dispute.
   */
  async test(account: MerchantAccount, webhookId: string, eventType: string) {
    await this.#activeWebhook(account, webhookId);
    const at = this.deps.now();
    const test = testEventBody(eventType, randomBytes(12).toString('hex'), at);
    const { eventId } = test;
    const body = JSON.stringify(test.body);
    const id = deliveryIdOf(eventId, webhookId);
    const create = {
      type: 'CREATE',
      id,
      webhookId,
      merchantId: account.merchantId,
      eventId,
      eventType,
      subjectId: eventId,
      body,
      eventAt: at,
      held: false,
      manual: true,
      at,
    } satisfies DeliveryEvent;
    await this.deps.system.ask(deliveryKind, id, create);
    const view = await untilView(
      this.deps.system.views(deliveryKind),
      id,
      (read) => read.status !== 'PENDING',
      this.deps.attemptTimeoutMs + TEST_ANSWER_MARGIN_MS,
    );
    const last = view?.attemptHistory.at(-1) ?? null;
    const delivered = view?.status === 'DELIVERED';
    const answered = view !== null && view.status !== 'PENDING';
    return {
      success: delivered,
      deliveryId: id,
      responseCode: last?.responseCode ?? null,
      error: delivered ? null : answered ? (last?.error ?? `The endpoint answered ${last?.responseCode}`) : 'No answer yet; the delivery log will show it',
    };
  }

  /** The webhook, when it is the account's and on; 404 or 409 otherwise. */
  async #activeWebhook(account: MerchantAccount, webhookId: string): Promise<PublicWebhook> {
    const webhook = await this.deps.setup.read(account, webhookId);
    if (!webhook.active) throw new ApiError(409, 'The webhook is disabled: enable it (PATCH active: true) before sending to it', 'WEBHOOK_DISABLED');
    return webhook;
  }

  async #view(webhookId: string, deliveryId: string, projection: { view: 1 } | { _id: 1 }): Promise<DeliveryView> {
    const doc = await this.deps.system.views(deliveryKind).findOne({ _id: deliveryId, 'view.webhookId': webhookId }, { projection });
    if (!doc) throw deliveryNotFound();
    return doc.view;
  }
}
