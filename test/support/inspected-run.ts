/**
 * An end-to-end run on a sandbox node for the inspector's tests: a merchant with a
 * webhook endpoint (its secret rotated once), an order paid in full through the
 * sandbox simulator, a second order whose attempt expires on the clock, and the
 * webhook deliveries all of that makes. Touches merchants, webhooks, orders,
 * payments and deliveries, with turns made by messages, tells and timers.
 */
import type { ExecutionContext } from 'ava';
import { answerOf, HOUR_MS, placeOrder, startPayment, type PlacedOrder } from './checkout.js';
import { webhookWorld, type WebhookWorld } from './webhooks.js';

export interface InspectedRun {
  world: WebhookWorld;
  paid: PlacedOrder;
  paymentId: string;
  expired: PlacedOrder;
  /** Every signing secret the endpoint has had. */
  secrets: string[];
}

export async function inspectedRun(t: ExecutionContext): Promise<InspectedRun> {
  const world = await webhookWorld(t);
  const { gateway, key } = world;
  const rotated = answerOf(await gateway.request('POST', `/api/v1/webhooks/${world.webhook.id}/rotate-secret`, { key }), 200, 'rotate secret');

  const paid = await placeOrder(gateway, key);
  const payment = await startPayment(paid);
  await world.advance(5 * 60_000);
  answerOf(await paid.customer('POST', `/payments/${payment.id}/simulate`), 200, 'simulate');

  const expired = await placeOrder(gateway, key);
  await startPayment(expired);
  await world.advance(HOUR_MS + 60_000);
  await gateway.node.system.effectsIdle();
  return { world, paid, paymentId: payment.id, expired, secrets: [world.webhook.secret, rotated.secret] };
}
