/**
 * A webhook's deliveries as the merchant reads and replays them: the paged log with its
 * filters, one delivery with its attempts, a redelivery, a redelivery of everything
 * that failed since a time, and the test event. Reads query the `delivery` actors'
 * views; every replay is a message to a delivery actor.
 */
import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import { CommandRejectedError } from '../../actors/errors.js';
import type { ActorSystem } from '../../actors/runtime/actor-system.js';
import type { Filter } from '../../actors/store/store.js';
import { deliveryIdOf, type DeliveryView, type PublicDelivery } from '../../actors/webhooks/delivery-kind.js';
import type { DeliveryEvent } from '../../machines/webhook/index.js';
import { ApiError } from '../envelope.js';
import type { MerchantAccount } from '../merchants/merchant-accounts.js';
import type { listDeliveriesQuery } from '../schemas/webhook-schemas.js';
import type { WebhookSetup } from './webhook-setup.js';

type ListQuery = z.infer<typeof listDeliveriesQuery>;

const NEWEST_FIRST = { 'view.createdAt': -1, _id: -1 } as const;

/** How often the test waits on its delivery's first answer. */
const TEST_POLL_MS = 25;

export interface DeliveryLogDependencies {
  system: ActorSystem;
  setup: WebhookSetup;
  now(): string;
  /** How long one attempt may take: the test waits that long for its answer, and a little more. */
  attemptTimeoutMs: number;
}

function deliveryNotFound(): ApiError {
  return new ApiError(404, 'Delivery not found', 'NOT_FOUND');
}

function webhookDisabled(): ApiError {
  return new ApiError(409, 'The webhook is disabled: enable it (PATCH active: true) before sending to it', 'WEBHOOK_DISABLED');
}

export class DeliveryLog {
  constructor(private readonly deps: DeliveryLogDependencies) {}

  async list(account: MerchantAccount, webhookId: string, query: ListQuery) {
    await this.deps.setup.read(account, webhookId);
    const filter: Filter = { 'view.webhookId': webhookId };
    if (query.status) filter['view.status'] = query.status;
    if (query.eventType) filter['view.eventType'] = query.eventType;
    if (query.eventId) filter['view.eventId'] = query.eventId;
    const deliveries = this.deps.system.documents('delivery');
    const [docs, total] = await Promise.all([
      deliveries.find(filter, { sort: NEWEST_FIRST, skip: (query.page - 1) * query.limit, limit: query.limit, projection: { 'view.delivery': 1 } }),
      deliveries.count(filter),
    ]);
    return { deliveries: docs.map((doc) => (doc.view as unknown as DeliveryView).delivery), total, page: query.page, limit: query.limit };
  }

  async read(account: MerchantAccount, webhookId: string, deliveryId: string) {
    await this.deps.setup.read(account, webhookId);
    const view = await this.#view(webhookId, deliveryId);
    return { ...view.delivery, attemptHistory: view.attemptHistory, payload: view.payload };
  }

  async redeliver(account: MerchantAccount, webhookId: string, deliveryId: string) {
    const webhook = await this.deps.setup.read(account, webhookId);
    if (!webhook.active) throw webhookDisabled();
    await this.#view(webhookId, deliveryId);
    try {
      return (await this.deps.system.ask({ kind: 'delivery', id: deliveryId }, { type: 'REDELIVER', at: this.deps.now() })) as PublicDelivery;
    } catch (error) {
      if (error instanceof CommandRejectedError && error.code === 'EVENT_NOT_ACCEPTED') {
        throw new ApiError(409, 'The delivery is being sent now; wait for its answer', 'DELIVERY_IN_PROGRESS');
      }
      throw error;
    }
  }

  /** The oldest `limit` deliveries that failed, made at or after `since`, each sent again once. */
  async redeliverFailed(account: MerchantAccount, webhookId: string, body: { since: string; limit: number }) {
    const webhook = await this.deps.setup.read(account, webhookId);
    if (!webhook.active) throw webhookDisabled();
    const filter = { 'view.webhookId': webhookId, 'view.status': 'FAILED', 'view.createdAt': { $gte: new Date(body.since).toISOString() } };
    const docs = await this.deps.system.documents('delivery').find(filter, { sort: { 'view.createdAt': 1, _id: 1 }, limit: body.limit + 1, projection: { _id: 1 } });
    const batch = docs.slice(0, body.limit).map((doc) => doc._id);
    const at = this.deps.now();
    const sent: string[] = [];
    for (const id of batch) {
      try {
        await this.deps.system.ask({ kind: 'delivery', id }, { type: 'REDELIVER', at });
        sent.push(id);
      } catch (error) {
        // Sent again meanwhile by another call: it is on its way already.
        if (!(error instanceof CommandRejectedError && error.code === 'EVENT_NOT_ACCEPTED')) throw error;
      }
    }
    return { count: sent.length, deliveryIds: sent, more: docs.length > body.limit };
  }

  /**
   * A test event of `eventType` through a delivery like any other (it shows in the log),
   * tried once, and its answer. The event carries no order: its id starts `evt_test_`.
   */
  async test(account: MerchantAccount, webhookId: string, eventType: string) {
    const webhook = await this.deps.setup.read(account, webhookId);
    if (!webhook.active) throw webhookDisabled();
    const at = this.deps.now();
    const eventId = `evt_test_${randomBytes(12).toString('hex')}`;
    const body = JSON.stringify({ id: eventId, type: eventType, timestamp: at, data: { order: null, payment: null, refund: null, paymentBridge: null } });
    const id = deliveryIdOf(eventId, webhookId);
    const create: DeliveryEvent = { type: 'CREATE', id, webhookId, merchantId: account.merchantId, eventId, eventType, subjectId: eventId, body, eventAt: at, held: false, manual: true, at };
    await this.deps.system.ask({ kind: 'delivery', id }, { ...create });
    const answered = await this.#firstAnswer(id);
    const last = answered?.attemptHistory.at(-1) ?? null;
    return {
      success: answered?.delivery.status === 'DELIVERED',
      deliveryId: id,
      responseCode: last?.responseCode ?? null,
      error: answered === null ? 'No answer yet; the delivery log will show it' : answered.delivery.status === 'DELIVERED' ? null : (last?.error ?? `The endpoint answered ${last?.responseCode}`),
    };
  }

  async #view(webhookId: string, deliveryId: string): Promise<DeliveryView> {
    const doc = await this.deps.system.documents('delivery').findOne({ _id: deliveryId, 'view.webhookId': webhookId }, { projection: { view: 1 } });
    if (!doc) throw deliveryNotFound();
    return doc.view as unknown as DeliveryView;
  }

  /** The delivery once its attempt has an answer, or null when none came within an attempt's time-out. */
  async #firstAnswer(deliveryId: string): Promise<DeliveryView | null> {
    const deadline = Date.now() + this.deps.attemptTimeoutMs + 2_000;
    while (Date.now() < deadline) {
      const doc = await this.deps.system.documents('delivery').findOne({ _id: deliveryId }, { projection: { view: 1 } });
      const view = doc?.view as unknown as DeliveryView | undefined;
      if (view && view.delivery.status !== 'PENDING') return view;
      await new Promise((resolve) => setTimeout(resolve, TEST_POLL_MS));
    }
    return null;
  }
}
