/**
 * How many merchants' webhooks are failing, for the `peer_webhook_merchants_failing`
 * gauge a scrape reads: merchants with an endpoint the platform switched off (it kept
 * failing, or answered 410 Gone), and merchants with a delivery still retrying after
 * several failed attempts.
 *
 * A count, not a series per merchant: a merchant id as a label value would make one
 * series per merchant that ever failed, kept for the life of the process and multiplied
 * by every other label, which is what Prometheus cannot hold. The alert says that some
 * merchant is failing; which one is in the store, where the admin API and the
 * merchant's delivery log show it (docs/webhooks.md).
 */
import type { WebhookFailingReason } from '../metrics/runtime-metrics.js';
import { deliveryKind } from '../kinds/delivery-kind.js';
import { webhookKind } from '../kinds/webhook-kind.js';
import type { ActorSystem } from '../runtime/actor-system.js';

/** After the third failed attempt a delivery waits 30 minutes: a receiver down that long is no blip. */
export const RETRYING_AFTER_ATTEMPTS = 3;

/** Deliveries read per scrape at most: past it the count is a floor, which still fires the alert. */
const SCAN_LIMIT = 10_000;

export async function merchantsFailingWebhooks(system: Pick<ActorSystem, 'views'>): Promise<Record<WebhookFailingReason, number>> {
  const [disabled, retrying] = await Promise.all([
    system
      .views(webhookKind)
      .find({ 'view.deleted': false, 'view.webhook.disabledReason.code': { $in: ['FAILING', 'GONE'] } }, { projection: { 'view.merchantId': 1 } }),
    system
      .views(deliveryKind)
      .find(
        { 'view.status': 'PENDING', 'view.delivery.attempts': { $gte: RETRYING_AFTER_ATTEMPTS } },
        { projection: { 'view.merchantId': 1 }, limit: SCAN_LIMIT },
      ),
  ]);
  const merchants = (docs: Array<{ view: { merchantId: string } }>) => new Set(docs.map((doc) => doc.view.merchantId)).size;
  return { endpoint_disabled: merchants(disabled), deliveries_retrying: merchants(retrying) };
}
