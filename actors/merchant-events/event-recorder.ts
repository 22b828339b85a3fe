/**
 * Records a merchant's event once, with its webhook body: the account is found and the
 * body built as they always were for webhooks (event-owner.ts, payloads.ts), and the
 * webhook dispatcher sends the recorded body. So the body is built once per event, and
 * a listed or streamed event is byte for byte the webhook its endpoints are sent, even
 * for payment events, whose order is read when the event is first handled.
 *
 * The bus delivers at least once: an event already recorded is answered from the log,
 * unchanged. The recorder also purges the log: after each event, every hour, and
 * whenever a test clock jumps.
 */
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { DomainEvent } from '../events/event-bus.js';
import type { ActorSystem } from '../runtime/actor-system.js';
import { isWebhookEventType } from '../../machines/webhook/index.js';
import { eventOwner } from '../webhooks/event-owner.js';
import { webhookEventId, webhookPayload } from '../webhooks/payloads.js';
import type { RecordedEvent, RecordedEvents } from '../webhooks/webhook-dispatcher.js';
import type { MerchantEventLog } from './event-log.js';

const PURGE_CHECK_MS = 60 * 60 * 1000;

export interface EventRecorderOptions {
  system: Pick<ActorSystem, 'documents'>;
  log: MerchantEventLog;
  clock: Pick<Clock, 'onAdvance'>;
  logger: Logger;
}

export class EventRecorder implements RecordedEvents {
  #unlisten: (() => void) | null = null;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: EventRecorderOptions) {}

  /** Purges on a timer and on every jump of a test clock, until stopped. */
  start(): void {
    this.#unlisten = this.options.clock.onAdvance(() => this.#purge());
    this.#timer = setInterval(() => void this.#purge(), PURGE_CHECK_MS);
    this.#timer.unref();
  }

  stop(): void {
    this.#unlisten?.();
    this.#unlisten = null;
    clearInterval(this.#timer);
  }

  /** The event's account and body as first recorded; null for an event of no webhook type or no merchant. */
  async record(event: DomainEvent): Promise<RecordedEvent | null> {
    if (!isWebhookEventType(event.type)) return null;
    const id = webhookEventId(event);
    // A redelivered event meets its kept row in log.record (a duplicate id answers the first body): no read first.
    const { merchantId, order } = await eventOwner(this.options.system, event);
    if (!merchantId) return null;
    const payload = await webhookPayload(event, async () => order);
    const recorded = await this.options.log.record({ _id: id, merchantId, type: event.type, ...resourcesOf(event, payload), payload });
    // Off the delivery's path: an hourly deleteMany would hold up this event's webhooks.
    void this.#purge();
    return recorded;
  }

  async #purge(): Promise<void> {
    try {
      const purged = await this.options.log.purgeIfDue();
      if (purged > 0) this.options.logger.info({ purged }, 'merchant events past their retention deleted');
    } catch (error) {
      this.options.logger.warn({ err: error }, 'purging merchant events failed; the next event tries again');
    }
  }
}

/** The order and payment an event is about, as its body names them. */
function resourcesOf(event: DomainEvent, payload: Record<string, unknown>): { orderId: string | null; paymentId: string | null } {
  const data = (payload.data ?? {}) as { order?: { id?: unknown } | null; payment?: { id?: unknown } | null; orderId?: unknown; paymentId?: unknown };
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    orderId: text(data.order?.id) ?? text(event.data.orderId) ?? text(data.orderId),
    // A bridge event carries no payment row: the bridge names its payment.
    paymentId: text(data.payment?.id) ?? text(data.paymentId) ?? text(event.data.paymentId),
  };
}
